import { describe, expect, it } from 'vitest';
import { edgeLines, makeRepo } from '../helpers.js';
import { buildIndex } from '../../src/indexer/build.js';
import { openReader } from '../../src/store/db.js';

// Java import resolution across source layouts: small repositories written inline, one per case.
async function index(files: Record<string, string>) {
  const root = makeRepo(files);
  const summary = await buildIndex(root);
  return { summary, db: openReader(root) };
}

describe('java source layouts', () => {
  it('matches imports by path suffix when no source root is recognised', async () => {
    const { db } = await index({
      'lib/com/x/Foo.java': 'package com.x;\npublic class Foo { public static void go() {} }\n',
      'app/com/y/Bar.java': 'package com.y;\nimport com.x.Foo;\nclass Bar { void run() { Foo.go(); } }\n',
    });
    expect(edgeLines(db, 'imports')).toEqual(['app.com.y.Bar -> Foo']);
    expect(edgeLines(db, 'calls', { confidence: true })).toEqual(['Bar.run -> Foo.go 0.9']);
    db.close();
  });

  it('keeps JDK imports external even when a repository package ends the same way', async () => {
    const { db } = await index({
      // Package `util`, below the source root: its FQN is util.List, not java.util.List.
      'src/main/java/util/List.java': 'package util;\npublic class List { public void add(Object o) {} }\n',
      'src/main/java/app/Main.java': [
        'package app;',
        'import java.util.List;',
        'class Main {',
        '  void run(List<String> xs) { xs.add("a"); java.util.UUID.fromString("x"); }',
        '}',
      ].join('\n'),
    });
    expect(edgeLines(db, 'imports')).toEqual(['app.Main -> external:java.util']);
    expect(edgeLines(db, 'calls')).toEqual([]);
    db.close();
  });

  it('lets tests see main sources but not the other way round', async () => {
    const { db } = await index({
      'src/main/java/a/Main.java': 'package a;\nimport a.b.Helper;\npublic class Main { void run() { Helper.help(); } }\n',
      'src/test/java/a/b/Helper.java': 'package a.b;\npublic class Helper { public static void help() {} }\n',
      'src/test/java/a/MainTest.java': 'package a;\nimport a.b.Helper;\nclass MainTest { void check() { Helper.help(); } }\n',
    });
    expect(edgeLines(db, 'imports')).toEqual(['a.Main -> external:a.b', 'a.MainTest -> Helper']);
    expect(edgeLines(db, 'calls')).toEqual(['MainTest.check -> Helper.help']);
    db.close();
  });

  it('shares a package between Ant-style java/ and test/ roots', async () => {
    const { db } = await index({
      'java/org/x/Engine.java': 'package org.x;\npublic class Engine { public void start() {} }\n',
      'test/org/x/EngineTest.java': [
        'package org.x;',
        'public class EngineTest {',
        '  public void testStart() { Engine e = new Engine(); e.start(); }',
        '}',
      ].join('\n'),
    });
    expect(edgeLines(db, 'calls', { confidence: true })).toEqual([
      'EngineTest.testStart -> Engine 0.85', // same package, no import
      'EngineTest.testStart -> Engine.start 0.9',
    ]);
    expect(edgeLines(db, 'tests')).toEqual(['EngineTest.testStart -> Engine', 'EngineTest.testStart -> Engine.start']);
    db.close();
  });
});
