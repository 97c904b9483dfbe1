import { Transform, type TransformCallback } from 'node:stream';

/**
 * Drops input lines longer than `max` bytes before the SDK's stdio transport sees them. The transport
 * closes itself (and so ends the server) when a message outgrows its buffer; a client sending one
 * oversized message should lose that message, not the server. The dropped request gets no reply (the
 * client's timeout answers it) and stderr says why.
 */
export class LineGuard extends Transform {
  private lineBytes = 0;
  private dropping = false;

  constructor(private readonly max: number, private readonly onDrop: (bytes: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl + 1;
      const piece = chunk.subarray(start, end);
      this.lineBytes += piece.length;
      if (!this.dropping && this.lineBytes > this.max) {
        // Too long: what was already passed on is ended with a newline (the transport then fails to
        // parse one line and carries on), and the rest of the line is dropped.
        this.dropping = true;
        this.push('\n');
      }
      if (!this.dropping) this.push(piece);
      if (nl !== -1) {
        if (this.dropping) this.onDrop(this.lineBytes);
        this.lineBytes = 0;
        this.dropping = false;
      }
      start = end;
    }
    done();
  }
}
