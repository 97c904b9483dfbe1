; Imports (parsed by parseImport in src/lang/go.ts): single, grouped, aliased, dot and blank.
(import_declaration) @import
