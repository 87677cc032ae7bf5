// Why a WebAssembly module did not load, told from the error its glue or the browser threw, for a
// message in the reader's language: the element and the lesson's diagrams word it with the
// element's texts (locales/<lang>/element.json, `wasm…`), the lesson's later parts with theirs.

/**
 * `{ kind: 'off' }`: the browser has no WebAssembly at all (Safari's Lockdown Mode, a browser
 * policy that turns it off), whatever the glue then threw; `{ kind: 'policy' }`: a Content
 * Security Policy refused to compile WebAssembly (the browser's
 * words, about 'unsafe-eval', would not tell an author what to add); `{ kind: 'missing' | 'status',
 * status, url }`: the server answered 404 or 410 (the file is not there), or another error status;
 * `{ kind: 'network' }`: the download failed ("Failed to fetch", "NetworkError…", "Load failed": a
 * dropped connection, or a policy's connect-src; the browser does not say which); `{ kind:
 * 'corrupt' }`: what arrived is no module, or not this release's; null: anything else, whose own
 * message is all there is.
 */
export function loadFailure(error) {
  if (typeof WebAssembly !== 'object') return { kind: 'off' };
  const detail = String(error?.message ?? error);
  if (/Content.Security.Policy|CSP|unsafe-eval/i.test(detail)) return { kind: 'policy' };
  // Bytes that are no module ("expected magic word": a host's page for a missing file; a file cut
  // short but sent whole), or a module whose imports are another release's glue (a cache mixing
  // versions): the browser's compiler words, which tell an author nothing.
  if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) return { kind: 'corrupt' };
  // The glue's words for a server's error: "failed to fetch Wasm: 404 Not Found fetching '…'".
  const answered = /^failed to fetch Wasm: (\d{3}[^']*?) fetching '([^']*)'/.exec(detail);
  if (answered) return { kind: /^(404|410)\b/.test(answered[1]) ? 'missing' : 'status', status: answered[1].trim(), url: answered[2] };
  if (error instanceof TypeError && /fetch|network|load failed/i.test(detail)) return { kind: 'network' };
  return null;
}

/** Whether `error` says the module did not download (the network, or the server's answer). */
export const notDownloaded = (error) => ['network', 'missing', 'status'].includes(loadFailure(error)?.kind);

/** The element's sentence for `error` (its `t`, the module's `file` name), or the error's own message. */
export function wasmFailureSaid(error, t, file) {
  const failure = loadFailure(error);
  const key = { off: 'wasmOff', policy: 'wasmPolicy', missing: 'wasmMissing', status: 'wasmStatus', network: 'wasmFetch', corrupt: 'wasmCorrupt' }[failure?.kind];
  return key ? t(key, { ...failure, file }) : String(error?.message ?? error);
}
