/** cg's own version: `cg --version`, the MCP servers' handshake, and each index's build record. */
export const CG_VERSION = '0.1.0';
