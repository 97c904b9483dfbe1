/**
 * The POSIX `cksum` CRC (polynomial 0x04C11DB7, MSB first, length appended, complemented), so records
 * written by the shell hooks with `cksum` and by Node carry the same checksum.
 */
const TABLE = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i << 24;
  for (let j = 0; j < 8; j++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  TABLE[i] = c >>> 0;
}

export function posixCksum(data: Uint8Array): number {
  let crc = 0;
  const step = (byte: number) => {
    crc = ((crc << 8) ^ TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  };
  for (const b of data) step(b);
  for (let len = data.length; len > 0; len = Math.floor(len / 256)) step(len & 0xff);
  return ~crc >>> 0;
}
