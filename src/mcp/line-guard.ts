import { Transform, type TransformCallback } from 'node:stream';

/** A JSON-RPC request id: what the error reply to an oversized request must carry. */
export type RequestId = string | number;

/**
 * Keeps input lines longer than `max` bytes from the SDK's stdio transport, which closes itself (and
 * so ends the server) when a message outgrows its buffer: a client that sends one oversized message
 * loses that message, not the server. The request still gets an answer: every line is scanned, in
 * constant memory, for its top-level `"id"` (the MCP SDK writes it last, after the parameters), and
 * `onOversized` is called with it once the line ends, so the server can reply with an error instead
 * of leaving the client to wait for its own timeout. A notification (no id) gets no reply, as
 * JSON-RPC says.
 *
 * Lines are passed on whole, one chunk each: the transport appends every chunk it receives to what it
 * holds (a copy of everything so far each time), so a line of a few megabytes arriving in 64 KiB
 * pieces cost seconds; held here as a list of pieces, it is joined once. A line that grows past `max`
 * is let go at once, and nothing of it reaches the transport.
 */
export class LineGuard extends Transform {
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  private dropping = false;
  private scan = new TopLevelId();

  constructor(private readonly max: number, private readonly onOversized: (bytes: number, id: RequestId | undefined) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl + 1;
      const piece = chunk.subarray(start, end);
      this.lineBytes += piece.length;
      this.scan.feed(piece);
      if (!this.dropping) {
        this.pieces.push(piece);
        if (this.lineBytes > this.max) {
          this.dropping = true;
          this.pieces = [];
        }
      }
      if (nl !== -1) {
        if (this.dropping) this.onOversized(this.lineBytes, this.scan.id());
        else this.passLine();
        this.lineBytes = 0;
        this.dropping = false;
        this.scan = new TopLevelId();
      }
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.dropping) this.passLine();
    done();
  }

  private passLine(): void {
    if (this.pieces.length) this.push(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces));
    this.pieces = [];
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest id kept: ids are counters or short strings; a longer one is not answered. */
const MAX_ID_BYTES = 256;

/**
 * The value of the `"id"` member of a JSON object, read byte by byte without building the object:
 * depth and string state only, with the current top-level key and the id's bytes kept (both bounded).
 */
export class TopLevelId {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** What the string or scalar being read is: a key of the top-level object, the id's value, or neither. */
  private role: 'key' | 'id' | null = null;
  private expectingKey = false;
  private keyIsId = false;
  /** The bytes of the key or id being read, as written (quotes and escapes included). */
  private bytes: number[] = [];
  private found: number[] | null = null;

  feed(buf: Buffer): void {
    const n = buf.length;
    for (let i = 0; i < n; i++) {
      if (this.inString && !this.role) {
        // Inside a string nobody needs (nearly all of a large message) only its closing quote matters.
        // With no backslash before it, memchr (Buffer.indexOf) finds it at once (12 MB: 3 ms); with
        // escapes, a tight loop over locals walks to it (about 20 ns a byte, a few times faster than
        // the general path below).
        if (!this.escaped) {
          const quote = buf.indexOf(QUOTE, i);
          if (buf.subarray(i, quote === -1 ? n : quote).indexOf(BACKSLASH) === -1) {
            if (quote === -1) return; // the string goes on past this buffer
            i = quote;
            this.inString = false;
            continue;
          }
        }
        let escaped = this.escaped;
        for (; i < n; i++) {
          const c = buf[i];
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) break;
        }
        this.escaped = escaped;
        if (i === n) return;
        this.inString = false;
        continue;
      }
      const c = buf[i];
      if (this.inString) {
        this.keep(c);
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.role === 'key') this.keyIsId = this.bytes.length === 4 && this.bytes[1] === 0x69 && this.bytes[2] === 0x64;
          if (this.role === 'id') this.found = this.bytes;
          this.role = null;
        }
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.expectingKey) {
            this.role = 'key';
            this.expectingKey = false;
            this.bytes = [];
          } else if (this.role !== 'id' || this.bytes.length) this.role = null;
          this.keep(c);
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.endScalar();
          this.role = null; // an object or array id is not one
          this.depth++;
          if (this.depth === 1 && c === 0x7b) this.expectingKey = true;
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.endScalar();
          this.depth--;
          break;
        case 0x3a: // :
          if (this.depth === 1 && this.keyIsId) {
            this.role = 'id';
            this.bytes = [];
          }
          this.keyIsId = false;
          break;
        case 0x2c: // ,
          this.endScalar();
          if (this.depth === 1) this.expectingKey = true;
          break;
        default:
          // A number or literal value of the id (whitespace between tokens is skipped).
          if (c > 0x20) this.keep(c);
      }
    }
  }

  /** The id, when the object had one that is a number or a string. */
  id(): RequestId | undefined {
    this.endScalar();
    if (!this.found) return undefined;
    try {
      const v = JSON.parse(Buffer.from(this.found).toString('utf8')) as unknown;
      return typeof v === 'number' || typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  private keep(c: number): void {
    if (this.role && this.bytes.length < MAX_ID_BYTES) this.bytes.push(c);
  }

  /** The end of a number or literal id (a string id ends at its closing quote). */
  private endScalar(): void {
    if (this.role === 'id' && this.bytes.length) {
      if (this.bytes[0] !== QUOTE) this.found = this.bytes;
      this.role = null;
    }
  }
}
