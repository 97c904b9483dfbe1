#!/usr/bin/env python3
"""Every call in a Python repository's files, resolved by Jedi (Debian's python3-jedi): the truth that
eval/call-graph-truth.mjs scores call graphs against for Python.

Reads the repository root and the list of files (relative paths, one a line) on stdin; writes one JSON
object a line: {file, line, name, target}, where target is
  {"file", "line", "lines", "name", "ctorOf", "value"?}  a definition in the repository (a function, a
                                                        class: its constructor; a module-level name
                                                        bound to a value is "value": true)
  "value"     a parameter or a local name
  "external"  something outside the repository (the standard library, a dependency)
  null        Jedi cannot tell (a receiver of unknown type)
"""
import ast
import json
import os
import sys

import jedi


def called_name(node):
    f = node.func
    if isinstance(f, ast.Name):
        return f.id, f.lineno, f.col_offset
    if isinstance(f, ast.Attribute):
        # The attribute's own position: the end of the expression minus its name.
        return f.attr, f.end_lineno, f.end_col_offset - len(f.attr)
    return None


def target(root, d):
    if d is None:
        return None
    path = str(d.module_path) if d.module_path else None
    if not path or not os.path.abspath(path).startswith(root + os.sep):
        return 'external'
    rel = os.path.relpath(path, root).replace(os.sep, '/')
    if d.type == 'param':
        return 'value'
    if d.type in ('function', 'class'):
        return {'file': rel, 'line': d.line, 'lines': [d.line], 'name': d.name,
                'ctorOf': d.name if d.type == 'class' else None}
    if d.type in ('statement', 'instance'):
        # A name bound to a value: at module or class level a tool may hold it as a definition.
        parent = d.parent()
        if parent is not None and parent.type in ('module', 'class'):
            return {'file': rel, 'line': d.line, 'lines': [d.line], 'name': d.name, 'ctorOf': None, 'value': True}
        return 'value'
    return None


_defs = {}


def overloads(root, rel, name, column, line):
    if rel not in _defs:
        found = {}
        try:
            tree = ast.parse(open(os.path.join(root, rel), encoding='utf-8').read())
            for n in ast.walk(tree):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    # The name's column: after `def `, `async def ` or `class `.
                    col = n.col_offset + (len('async def ') if isinstance(n, ast.AsyncFunctionDef) else len('class ') if isinstance(n, ast.ClassDef) else len('def '))
                    found.setdefault((n.name, col), []).append(n.lineno)
        except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
            pass
        _defs[rel] = found
    return sorted(set(_defs[rel].get((name, column), []) + [line]))


def main():
    root = os.path.abspath(sys.argv[1])
    # The repository's own code first (`src/` layouts too): an installed copy of the same package (flask in
    # site-packages) must not stand in for it. Dependencies still resolve, to files outside the repository.
    own = [p for p in (os.path.join(root, 'src'), root) if os.path.isdir(p)]
    project = jedi.Project(root, sys_path=own + [p for p in sys.path if p and os.path.abspath(p) not in own])
    for rel in (l.strip() for l in sys.stdin if l.strip()):
        path = os.path.join(root, rel)
        try:
            source = open(path, encoding='utf-8').read()
            tree = ast.parse(source)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        script = jedi.Script(source, path=path, project=project)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = called_name(node)
            if not called:
                continue
            name, line, col = called
            try:
                defs = script.goto(line, col, follow_imports=True)
            except Exception:  # Jedi gives up on some constructs: unresolved
                defs = []
            t = target(root, defs[0]) if defs else None
            if isinstance(t, dict) and not t.get('value'):
                # `@overload` stubs and the implementation are one function: every def of that name at its indentation.
                t['lines'] = overloads(root, t['file'], t['name'], defs[0].column, t['line'])
            print(json.dumps({'file': rel, 'line': node.lineno, 'name': name, 'target': t}))


if __name__ == '__main__':
    main()
