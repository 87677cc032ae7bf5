// Where the statements go, read from the launch: the URL's parameters as an xAPI ("Tin Can")
// launch writes them, else the page's own settings (data-xapi-* on <body>).
//   xAPI launch:  ?endpoint=https://lrs.example/xAPI/&auth=Basic%20…&actor={…}&registration=…&activity_id=…
//   page:         <body data-xapi-endpoint="…" data-xapi-auth="…" data-xapi-actor='{…}'>
//   package:      <body data-xapi-activity="…"> (the id in tincan.xml, when the launch has no activity_id)
// The lesson is not a cmi5 AU (no initialized/terminated, no cmi5 session context or moveOn
// statements): a cmi5 launch (its `fetch=`) is refused by name rather than half followed.
// Nothing here is built in: without an endpoint the statements stay in the page (bucketlab:xapi).
// It also finds an LMS's SCORM API (findLms): what loads the SCORM run-time, scorm.js, at all.
import { cut } from '../i18n/translate.js';

/** A launch setting that can't be used: names the setting, the value and what is allowed. */
export class LaunchError extends Error {}

/** An address or id can be long: more of it is quoted than of a number. */
const short = (value) => cut(value, 60);

/**
 * The launch's settings from `params` (URLSearchParams) and `data` (a dataset):
 * `{ endpoint, auth, actor, registration, activityId, packageActivityId }`, each undefined when
 * not given.
 * Throws a LaunchError for a cmi5 launch, and one that names every value given but unusable, each
 * by the name it was given under (`activity_id`, `data-xapi-endpoint`).
 */
export function readLaunch(params, data = {}) {
  if (params.has('fetch')) {
    throw new LaunchError('launch setting fetch= makes this a cmi5 launch, which this lesson does not follow (it is not a cmi5 AU): ' +
      'import it into the LMS as an xAPI (Tin Can) activity, launched with endpoint and auth');
  }
  /** `[name, value]`: the first of `names` in the address, else the page's data-* setting. */
  const read = (names, dataName) => {
    const name = names.find((n) => params.has(n));
    if (name) return [name, params.get(name)];
    if (dataName && data[dataName] !== undefined) return [`data-${dataName.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, data[dataName]];
    return [names[0], undefined];
  };
  const problems = [];
  const refuse = (name, value, allowed) => {
    problems.push(`launch setting ${name}="${short(value)}" is not usable: ${allowed}`);
  };
  const url = ([name, value]) => {
    if (value === undefined) return undefined;
    let parsed;
    try {
      parsed = new URL(value);
    } catch {
      parsed = null;
    }
    if (parsed && ['http:', 'https:'].includes(parsed.protocol)) return parsed.href;
    return void refuse(name, value, 'it must be an absolute http(s) URL');
  };
  const [, registration] = read(['registration']);
  const settings = { auth: read(['auth'], 'xapiAuth')[1], registration };
  const endpoint = url(read(['endpoint'], 'xapiEndpoint'));
  if (endpoint !== undefined) settings.endpoint = endpoint;
  const activityId = url(read(['activityId', 'activity_id']));
  if (activityId !== undefined) settings.activityId = activityId;
  // The id in an xAPI package's tincan.xml, which scripts/tincan.mjs writes into its pages: the
  // lesson's id when the launch names none.
  const packageActivityId = url(read([], 'xapiActivity'));
  if (packageActivityId !== undefined) settings.packageActivityId = packageActivityId;
  if (registration !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(registration)) {
    refuse('registration', registration, 'it must be a UUID');
  }
  const [actorName, actorText] = read(['actor'], 'xapiActor');
  if (actorText !== undefined) {
    let actor;
    try {
      actor = JSON.parse(actorText);
    } catch {
      actor = null;
    }
    // The LRS identifies an Agent by one of these; Tin Can launches often send an mbox.
    const identified = actor && typeof actor === 'object' && ['mbox', 'mbox_sha1sum', 'openid', 'account'].some((k) => k in actor);
    if (identified) {
      // The Tin Can launch wraps names and mboxes in lists; the statement wants one of each.
      for (const key of ['name', 'mbox', 'mbox_sha1sum', 'openid', 'account']) {
        if (Array.isArray(actor[key])) actor[key] = actor[key][0];
      }
      // Tin Can 0.9's account ({ accountServiceHomePage, accountName }), which SCORM Cloud and
      // TinCanJS still send: xAPI 1.0 calls them homePage and name, and an LRS refuses the others.
      const { account } = actor;
      if (account && typeof account === 'object') {
        const { accountServiceHomePage, accountName, ...rest } = account;
        actor.account = { homePage: accountServiceHomePage, name: accountName, ...rest };
        for (const key of ['homePage', 'name']) if (actor.account[key] === undefined) delete actor.account[key];
      }
      settings.actor = { objectType: 'Agent', ...actor };
    } else {
      refuse(actorName, actorText, 'it must be a JSON xAPI Agent with an mbox, mbox_sha1sum, openid or account');
    }
  }
  if (problems.length) throw new LaunchError(problems.join('; '));
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
