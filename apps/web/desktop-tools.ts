import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** One download of the desktop tools section (/app/download): a real file of the repository, as shipped. */
export interface DesktopToolFile {
  /** Names the tool's texts (oem.tool.<id>.*) in the console. */
  id: string;
  /** Its path under /tools/ in the build. */
  file: string;
  size: number;
}

const REPO = join(import.meta.dirname, '..', '..');

/** Files copied as they are; the register maps are joined into one reference, README first. */
function toolSources(): { id: string; file: string; content: Buffer }[] {
  const read = (path: string) => readFileSync(join(REPO, path));
  const maps = join(REPO, 'docs', 'register-maps');
  const pages = readdirSync(maps)
    .filter((f) => f.endsWith('.md'))
    .sort((a, b) => (a === 'README.md' ? -1 : b === 'README.md' ? 1 : a.localeCompare(b)));
  return [
    { id: 'pythonGateway', file: 'python-gateway/gateway.py', content: read('examples/python-gateway/gateway.py') },
    { id: 'pythonGatewayReadme', file: 'python-gateway/README.md', content: read('examples/python-gateway/README.md') },
    { id: 'gatewayProtocol', file: 'gateway-protocol.md', content: read('docs/gateway-protocol.md') },
    {
      id: 'registerMaps',
      file: 'register-maps.md',
      content: Buffer.concat(pages.map((page) => Buffer.concat([readFileSync(join(maps, page)), Buffer.from('\n\n')]))),
    },
    { id: 'openApi', file: 'open-api.md', content: read('docs/open-api.md') },
  ];
}

/**
 * The desktop tools the product really ships (issue 24): the Python example gateway, the gateway protocol, the
 * register map reference and the open API guide, written into the build under /tools/ with /tools/index.json
 * listing each with its size, so the download page shows what the running build serves.
 */
export function desktopTools(): Plugin {
  return {
    name: 'sunward-desktop-tools',
    apply: 'build',
    generateBundle() {
      const index: DesktopToolFile[] = [];
      for (const tool of toolSources()) {
        this.emitFile({ type: 'asset', fileName: `tools/${tool.file}`, source: tool.content });
        index.push({ id: tool.id, file: tool.file, size: tool.content.length });
      }
      this.emitFile({ type: 'asset', fileName: 'tools/index.json', source: JSON.stringify(index) });
    },
  };
}
