// A small static server for the embedding tests, more configurable than harness.mjs's serve():
// any directory under any sub-path, a chosen MIME type for .wasm (hosts get it wrong), extra
// headers (a strict CSP), in-memory pages (hostile host pages), and the precompressed .br/.gz
// copies of dist/ when the browser accepts them. Every response is logged for assertions.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The strict policy every page works under (the one harness.mjs serves, and www/_headers ships). */
export { CSP as STRICT_CSP } from './harness.mjs';

/**
 * The rules of a `_headers` file as the static hosts that read it apply them: a path pattern at
 * the start of a line, from the host's root (`*` matches any rest of the path), then its headers
 * indented under it. Every rule that matches a path adds its headers.
 */
export function hostRules(text) {
  const rules = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const pattern = new RegExp(`^${line.trim().split('*').map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&')).join('.*')}$`);
      rules.push({ pattern, headers: {} });
    } else {
      const [, name, value] = line.match(/^\s+([^:]+):\s*(.*)$/);
      rules.at(-1).headers[name.toLowerCase()] = value;
    }
  }
  return rules;
}

/** The headers `rules` (hostRules) give the request's `path` ('/courses/x/pkg/bucketlab_bg.wasm'). */
export function hostHeaders(rules, path) {
  return Object.assign({}, ...rules.filter((rule) => rule.pattern.test(path)).map((rule) => rule.headers));
}

/**
 * Serves `root` under `prefix` on 127.0.0.1 (a free port). Options: `wasmType` (Content-Type of
 * .wasm), `headers` (added to every response), `pages` ({ 'path/under/prefix': text }),
 * `precompressed` (serve file.br / file.gz when accepted), `hosted` (add the headers that `root`'s
 * own `_headers` gives each request's full path, prefix included, as a static host that reads
 * it does: nothing strips the prefix). Resolves to
 * { url, origin, log, close }.
 */
export async function serveStatic(root, options = {}) {
  const { prefix = '/', wasmType = TYPES['.wasm'], headers = {}, pages = {}, precompressed = false, hosted = false } = options;
  const base = root.endsWith('/') ? root : `${root}/`;
  const rules = hosted ? hostRules(readFileSync(`${base}_headers`, 'utf8')) : [];
  const log = [];
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!pathname.startsWith(prefix)) return void res.writeHead(404).end('outside the site');
    let path = normalize(pathname.slice(prefix.length));
    if (path === '.' || path.endsWith('/')) path = `${path === '.' ? '' : path}index.html`;
    const type = extname(path) === '.wasm' ? wasmType : (TYPES[extname(path)] ?? 'application/octet-stream');
    const send = (body, encoding) => {
      log.push({ path, type, encoding });
      res.writeHead(200, { 'content-type': type, ...(encoding && { 'content-encoding': encoding, vary: 'accept-encoding' }), ...hostHeaders(rules, pathname), ...headers });
      res.end(body);
    };
    if (path in pages) return void send(pages[path]);
    const file = join(base, path);
    if (!file.startsWith(base)) return void res.writeHead(403).end();
    const accepted = String(req.headers['accept-encoding'] ?? '');
    for (const [encoding, suffix] of precompressed ? [['br', '.br'], ['gzip', '.gz']] : []) {
      if (!accepted.includes(encoding)) continue;
      try {
        return void send(await readFile(file + suffix), encoding);
      } catch { /* no precompressed copy: try the next, then the file itself */ }
    }
    try {
      send(await readFile(file));
    } catch {
      log.push({ path, status: 404 });
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { url: `${origin}${prefix}`, origin, log, close: () => new Promise((resolve) => server.close(resolve)) };
}
