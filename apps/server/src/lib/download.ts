import type { FastifyReply } from 'fastify';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends a file the browser saves under `fileName` (exports, downloads); `noStore` keeps it out of caches. */
export function sendDownload(reply: FastifyReply, file: { type: string; fileName: string; bytes: Buffer | string; noStore?: boolean }) {
  reply.type(file.type).header('content-disposition', `attachment; filename="${file.fileName}"`);
  if (file.noStore) reply.header('cache-control', 'no-store');
  return reply.send(file.bytes);
}
