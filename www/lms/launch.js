// Where the statements go, read from the launch: the URL's parameters as an xAPI ("Tin Can")
// launch writes them, else the page's own settings (data-xapi-* on <body>).
//   xAPI launch:  ?endpoint=https://lrs.example/xAPI/&auth=Basic%20…&actor={…}&registration=…&activity_id=…
//   page:         <body data-xapi-endpoint="…" data-xapi-auth="…" data-xapi-actor='{…}'>
// The lesson is not a cmi5 AU (no initialized/terminated, no cmi5 session context or moveOn
// statements): a cmi5 launch (its `fetch=`) is refused by name rather than half followed.
// Nothing here is built in: without an endpoint the statements stay in the page (bucketlab:xapi).
// It also finds an LMS's SCORM API (findLms): what loads the SCORM run-time, scorm.js, at all.

/** A launch setting that can't be used: names the setting, the value and what is allowed. */
export class LaunchError extends Error {}

const short = (value) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/**
 * The launch's settings from `params` (URLSearchParams) and `data` (a dataset):
 * `{ endpoint, auth, actor, registration, activityId }`, each undefined when not given.
 * Throws a LaunchError for a value that is given but unusable, and for a cmi5 launch.
 */
export function readLaunch(params, data = {}) {
  const get = (name, dataName) => params.get(name) ?? data[dataName] ?? undefined;
  if (params.has('fetch')) {
    throw new LaunchError('launch setting fetch= makes this a cmi5 launch, which this lesson does not follow (it is not a cmi5 AU): ' +
      'import it into the LMS as an xAPI (Tin Can) activity, launched with endpoint and auth');
  }
  const endpoint = get('endpoint', 'xapiEndpoint');
  const actorText = get('actor', 'xapiActor');
  const registration = params.get('registration') ?? undefined;
  const activityId = params.get('activityId') ?? params.get('activity_id') ?? undefined;
  const url = (name, value) => {
    let parsed;
    try {
      parsed = new URL(value);
    } catch {
      parsed = null;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
      throw new LaunchError(`launch setting ${name}="${short(value)}" is not usable: it must be an absolute http(s) URL`);
    }
    return parsed.href;
  };
  const settings = { auth: get('auth', 'xapiAuth'), registration };
  if (endpoint !== undefined) settings.endpoint = url('endpoint', endpoint);
  if (activityId !== undefined) settings.activityId = url('activityId', activityId);
  if (registration !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(registration)) {
    throw new LaunchError(`launch setting registration="${short(registration)}" is not usable: it must be a UUID`);
  }
  if (actorText !== undefined) {
    let actor;
    try {
      actor = JSON.parse(actorText);
    } catch {
      actor = null;
    }
    // The LRS identifies an Agent by one of these; Tin Can launches often send an mbox.
    const identified = actor && typeof actor === 'object' && ['mbox', 'mbox_sha1sum', 'openid', 'account'].some((k) => k in actor);
    if (!identified) {
      throw new LaunchError(`launch setting actor="${short(actorText)}" is not usable: it must be a JSON xAPI Agent ` +
        'with an mbox, mbox_sha1sum, openid or account');
    }
    // The Tin Can launch wraps names and mboxes in lists; the statement wants one of each.
    for (const key of ['name', 'mbox', 'mbox_sha1sum', 'openid', 'account']) {
      if (Array.isArray(actor[key])) actor[key] = actor[key][0];
    }
    settings.actor = { objectType: 'Agent', ...actor };
  }
  return settings;
}

/** How far up the frames to look (the ADL's own wrapper stops at 500; real LMSs nest a few). */
const MAX_DEPTH = 10;

/** The first window in `start`'s parent chain (then its opener's) holding `name`, or null. */
function findIn(start, name) {
  for (let win = start, depth = 0; win && depth <= MAX_DEPTH; depth += 1) {
    try {
      if (win[name]) return win[name];
    } catch {
      // A frame of another origin: its properties can't be read; keep climbing.
    }
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}

/** `{ version: '2004' | '1.2', api }` for the LMS around `win`, or null outside an LMS. */
export function findLms(win = window) {
  for (const start of [win, win.opener].filter(Boolean)) {
    const api2004 = findIn(start, 'API_1484_11');
    if (api2004) return { version: '2004', api: api2004 };
    const api12 = findIn(start, 'API');
    if (api12) return { version: '1.2', api: api12 };
  }
  return null;
}

/** The share of right answers that passes when the LMS sets no cmi.scaled_passing_score. */
export const DEFAULT_PASSING = 0.7;
