import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { CgError, errorMessage } from '../../errors.js';
import { isBinary } from '../../extract/filters.js';
import type { SignalLocation } from '../../retrieve/query.js';
import { signalsFromText } from '../../retrieve/signal-input.js';

const MAX_SIGNAL_BYTES = 10 * 1024 * 1024;

/** Reads a stack trace / test output / log file given on the command line and finds the places it names. */
export function readSignals(root: string, file: string, db: Database.Database): SignalLocation[] {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path.resolve(file));
  } catch (err) {
    throw new CgError('usage', `Cannot read the signal file ${file}: ${errorMessage(err)}`, 'Pass a text file with a stack trace, test output or log lines.');
  }
  if (buf.length > MAX_SIGNAL_BYTES) {
    throw new CgError('usage', `The signal file is ${buf.length} bytes; the limit is ${MAX_SIGNAL_BYTES}`, 'Pass the relevant part of the log.');
  }
  if (isBinary(buf)) throw new CgError('usage', `${file} is not text`, 'Pass a text file with a stack trace, test output or log lines.');
  return signalsFromText(db, root, buf.toString('utf8'));
}
