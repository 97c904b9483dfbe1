import type { LanguageSpec, Visibility, VisibilityInput } from './types.js';
import { C_LIBRARY, createIncludeResolver, isCTestFile, isCTestFunctionName, parseInclude } from './c-family.js';
import { storageClass } from './c.js';

/** GoogleTest and Catch2 test macros: `TEST(Suite, Name) { … }` parses as a function named `Name`. */
const TEST_MACRO = /^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|TEST_CASE|TEST_CASE_METHOD|SCENARIO|BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE)\s*\(/;

/**
 * A member's access is the last `public:`/`private:`/`protected:` label before it in its class; a
 * `class` starts private, a `struct` public.
 */
function visibility({ node, modifiers, parentKind }: VisibilityInput): Visibility {
  if (parentKind === 'class' || parentKind === 'struct') {
    const member = node.parent?.type === 'template_declaration' ? node.parent : node;
    for (let s = member.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'access_specifier') return s.text.replace(/\s*:$/, '') as Visibility;
    }
    const type = member.parent?.parent?.type;
    return type === 'class_specifier' ? 'private' : 'public';
  }
  return modifiers.has('static') ? 'private' : 'public';
}

export const cpp: LanguageSpec = {
  id: 'cpp',
  // Parameters belong to their function or lambda, declarations to their block (queries/c-family/locals.scm).
  localScopes: new Set(['function_definition', 'lambda_expression', 'compound_statement']),
  family: 'c',
  displayName: 'C++',
  extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.ipp', '.tpp'],
  grammar: 'tree-sitter-cpp.wasm',
  queryDir: ['cpp', 'c-family'],
  commentTypes: ['comment'],
  // Docs sit above `template <…>`.
  wrapperTypes: ['template_declaration'],
  annotationTypes: [],
  selfNames: ['this'],
  // A member function calls its class's other members without `this->`.
  bareCallsReachMembers: true,
  // `std::move(x)`, `std::vector<T>`: the standard library is outside every repository.
  builtins: new Set([...C_LIBRARY, 'std', 'string', 'vector', 'map', 'unordered_map', 'make_unique', 'make_shared',
    'move', 'forward']),
  // The containers' and strings' methods: `xs.size()` on a value of unknown type is not a repository method.
  builtinMethods: new Set(['size', 'begin', 'end', 'push_back', 'emplace_back', 'c_str', 'empty', 'clear', 'find',
    'insert', 'erase', 'reset', 'get', 'at', 'front', 'back', 'data', 'substr', 'append', 'count', 'swap']),
  definitionModifiers: storageClass,
  // `repo_` and `this->repo_` both reach a field declared in the class body.
  fieldAccess: (declared) => declared,
  visibility,
  parseImport: parseInclude,
  moduleName: (path) => path,
  // Namespaces are not part of qualified names (as PHP's): `shop::Product::key` is `Product.key`, and a
  // class's members defined in another file (`double Product::price() const {…}`) join it by that name.
  sharedScopeKey: () => '',
  isTestFile: isCTestFile,
  isTestSymbol: ({ name, kind, inTestFile, signature }) => {
    if (kind !== 'function' && kind !== 'method') return false;
    if (signature && TEST_MACRO.test(signature)) return true;
    return inTestFile && kind === 'function' && isCTestFunctionName(name);
  },
  createImportResolver: createIncludeResolver,
};
