import { fileNameFromDisposition } from '../lib/download';

/** A file the server answered: its bytes and its Content-Disposition (the name it gives). */
export interface ServerFile {
  blob: Blob;
  disposition: string | null;
}

/**
 * One export as the export button runs it: a hand-over first (a large export goes to the download
 * centre), else the file is fetched and saved under the server's name or the fallback. Answers what
 * happened; a refusal rejects.
 */
export async function runExport<F extends string>(
  format: F,
  steps: {
    takeOver?: (format: F) => Promise<boolean>;
    fetchFile(format: F): Promise<ServerFile>;
    fallbackName(format: F): string;
    save(blob: Blob, name: string): void;
  },
): Promise<'handed-over' | 'saved'> {
  if (steps.takeOver && (await steps.takeOver(format))) return 'handed-over';
  const { blob, disposition } = await steps.fetchFile(format);
  steps.save(blob, fileNameFromDisposition(disposition) ?? steps.fallbackName(format));
  return 'saved';
}
