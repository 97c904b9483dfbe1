import type { Node, Tree } from 'web-tree-sitter';

/**
 * The nearest node of a set of types around a node, found by position instead of by walking parents.
 * web-tree-sitter's `parent` is not a pointer: each call searches down from the root, so walking up from
 * every bound name was ~4 % of extracting a Python or TypeScript file (Django, hono). Here each tree's
 * nodes of those types are listed once, in document order (`descendantsOfType`, one call), each with the
 * innermost listed node around it; a lookup takes the last listed node starting at or before the node and
 * climbs that chain to the first one whose range holds the node, which is the nearest such ancestor: ranges
 * of a tree's nodes nest, and of two with the same range the later listed is the inner one.
 */
export class ScopeFinder {
  private readonly byTree = new Map<Tree, Listed>();

  constructor(private readonly types: ReadonlySet<string>) {}

  /**
   * The nearest node of the types whose range holds `node`, other than `except` (a declaration, whose
   * own name belongs to the scope around it), or null at the top of the file.
   */
  around(node: Node, except: Node | null = null): Node | null {
    const listed = this.listed(node.tree);
    const start = node.startIndex;
    const end = node.endIndex;
    // The last listed node that starts at or before `start`.
    let lo = 0;
    let hi = listed.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (listed.starts[mid] <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i = listed.parent[i]) {
      if (listed.ends[i] >= end && !(except && listed.nodes[i].id === except.id)) return listed.nodes[i];
    }
    return null;
  }

  private listed(tree: Tree): Listed {
    let l = this.byTree.get(tree);
    if (!l) {
      const nodes = tree.rootNode.descendantsOfType([...this.types]).filter((n): n is Node => !!n);
      const starts = nodes.map((n) => n.startIndex);
      const ends = nodes.map((n) => n.endIndex);
      // Each node's innermost listed ancestor: the nearest one still open on a stack of document order.
      const parent: number[] = [];
      const open: number[] = [];
      for (let i = 0; i < nodes.length; i++) {
        while (open.length && !(starts[open[open.length - 1]] <= starts[i] && ends[i] <= ends[open[open.length - 1]])) open.pop();
        parent.push(open.length ? open[open.length - 1] : -1);
        open.push(i);
      }
      l = { nodes, starts, ends, parent };
      this.byTree.set(tree, l);
    }
    return l;
  }
}

interface Listed {
  nodes: Node[];
  starts: number[];
  ends: number[];
  /** Index of the innermost listed node around each one, -1 for none. */
  parent: number[];
}
