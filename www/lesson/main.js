// The lesson page: picks the language's page, restores a permalink, mounts the diagram (wasm) and
// its compact twin on the first screen (the hero, configured the same way) and wires the code tabs,
// the tech toggle, the copy buttons, the live policy and the live response.
// Configuration comes from the mount element's data-* attributes; the URL may override them
// (?capacity=20&refill-rate=2&tokens=0, or the permalink #b=20&r=2&c=1&lang=en&tab=config&code=go).
import init, { TokenBucket } from '../pkg/bucketlab.js';
import { cut, languageOf, translator } from '../i18n/translate.js';
import elementTables from '../i18n/locales/element.js';
import { showError } from '../element/error-box.js';
import { loadFailure, notDownloaded } from '../element/load-failure.js';
import { loadRetrying, sayRetrying } from '../element/load-retry.js';
import { mountDiagram, mountErrors } from '../element/mount.js';
import { onWasmTrap } from '../element/trap.js';
import { keepLinkTargetsInPlace } from './anchors.js';
import { setUpCopyButtons, wireCopyButton } from './copy.js';
import { openAsHanded, readingSection, switchPageIfAsked, takeHandoff, wireLanguageLinks } from './language.js';
import { isPermalink, permalinkHash, readPermalink, refusedSettings, shareableUrl } from './permalink.js';
import { openDetailsWhenPrinting } from './print.js';
import { showFailure } from './lazy.js';
import { exposeSectionsWhenIdle } from './expose-sections.js';
import { keepFocusInView } from './focus-in-view.js';
import { focusableWhileScrolling } from './scroll-focus.js';
import { formatNumber, pageLang, t } from './strings.js';
import { setUpTabs } from './tabs.js';
import { setUpTechToggle } from './tech.js';
import { followDecisions } from './usage.js';
// The entry points of the parts that load when they come near (www/lesson/lazy.js), each tiny: the
// lab, several servers, the defense sections, the retrying clients, the traffic replay, the
// "Embed this diagram" panel. Imported, so the page starts with one script (scripts/bundle.mjs).
import './lab/loader.js';
import './servers/loader.js';
import './defense/loader.js';
import './clients/loader.js';
import './traffic/loader.js';
import '../embed/panel-loader.js';
// Imported, not a script of its own, so it has run, and its listeners are on the document, before
// any diagram here can decide a request: a 429 met before it ran would be missed, and the LMS
// would never hear that the lesson was completed.
import { resumedAt, resumedLang } from '../lms/lesson.js';
import { keepAnswers, keptAnswers } from './quiz-answers.js';
import { keepParts, keptPart } from './kept-parts.js';

const root = document.getElementById('bucket-widget');
const hero = document.getElementById('hero-widget');
const params = new URLSearchParams(location.search);
/** The refused entries of a link the notice names one by one; the rest it counts. */
const NOTICE_ITEMS = 8;
const link = readPermalink(location.hash);
// ?lang=en-GB and ?lang=pt are English and Brazilian Portuguese, as for the element and embed.html
// (null: another language, named in the page's notice).
const askedLang = params.has('lang') ? languageOf(params.get('lang')) : undefined;
const explicitLang = askedLang ?? link.values.lang;

// A permalink pasted into the address bar of this open page changes only the hash; the page reads
// a permalink once, when it starts, so it starts again from the new one. Its own updates of the
// address use history.replaceState, which fires no hashchange, and a link to a section is no
// permalink. An entry the page wrote itself (OWN_ENTRY), reached again by Back or Forward past a
// section's link, is no new link: the reader's session stays, and the entry is brought up to date.
const OWN_ENTRY = { bucketlab: 'permalink' };
const isOwnEntry = () => history.state?.bucketlab === OWN_ENTRY.bucketlab;
let ownEntryReached = () => {};
addEventListener('hashchange', () => {
  if (!isPermalink(location.hash)) return;
  if (isOwnEntry()) ownEntryReached();
  else location.reload();
});

// Console experiments (section 5 shows some): `new bucketlab.TokenBucket({ capacity: 5, refillRate: 1 })`.
Object.assign(window.bucketlab ??= {}, { TokenBucket, diagram: null, hero: null });

// Section 5's console block is for a computer: closed on a touch screen (no console there) and in
// the phone layout; the page has it open, for readers without JavaScript.
if (matchMedia('(hover: none) and (pointer: coarse), (max-width: 47.4988em)').matches) {
  document.getElementById('console-block').open = false;
}

const scrollToKept = keepLinkTargetsInPlace();
keepFocusInView();
exposeSectionsWhenIdle(document.querySelectorAll('main > section'));
openDetailsWhenPrinting();
// The scroll boxes the page's markup makes Tab stops (not the diagrams': theirs are the widget's
// own): each stays one only while it has something to scroll.
focusableWhileScrolling([...document.querySelectorAll('main :is(pre, .table-wrap)[tabindex="0"]:not(.bl-mount *)')]);
if (!switchPageIfAsked(explicitLang, resumedLang)) start();

/**
 * Puts `handle` at `window.bucketlab[name]` for the page and the console, until it is freed
 * (`free()`, or `using`): then the page stops asking it for its state, which would throw.
 */
function expose(name, handle, root) {
  const free = handle.free.bind(handle);
  handle.free = () => {
    const mine = window.bucketlab[name] === handle;
    if (mine) window.bucketlab[name] = null;
    free();
    // Freed from the console: its place says so and how to get it back, not an empty card.
    if (mine && !root.querySelector('.bl-widget, .bl-error')) {
      const said = document.createElement('p');
      said.className = 'bl-freed';
      said.setAttribute('role', 'status');
      said.textContent = t('widget_freed', { name });
      root.replaceChildren(said);
    }
  };
  if (Symbol.dispose) handle[Symbol.dispose] = handle.free;
  window.bucketlab[name] = handle;
}

/** Shows `text` in the page's notice (as text, never as markup). */
function showNotice(text) {
  const notice = document.getElementById('page-notice');
  notice.textContent = text;
  notice.hidden = false;
}

/** Whether a scenario's text holds an action (its header has five fields: 1_B_r_tokens_end). */
const acted = (scenario) => scenario.split('_').length > 5;

/**
 * Plays recording `s` into `handle`: at the past moment `at` when one was shown (stopped there, as
 * it was; then true), else live at its end, running if `running`.
 */
function carry(handle, s, running, at) {
  try {
    handle.playScenario(s);
  } catch {
    return false;
  }
  try {
    if (typeof at === 'number') {
      handle.seek(at);
      return true;
    }
  } catch {} // a moment out of the timeline's reach: live, as before
  try {
    handle.live();
    if (running) handle.resume();
  } catch {}
  return false;
}

/**
 * What opens the Config tab's editor in `panel`: its code (policy.js) loads then, as nothing of it
 * is needed before the tab, and its parser's wasm after it. Code that did not arrive is said under
 * the policy's text, which stays readable, with the way out the other parts give.
 */
function policyEditor(panel, diagram) {
  let editor = null;
  // One line for the failure, however often the tab is chosen again while it stands.
  const failed = Object.assign(document.createElement('p'), { className: 'policy-status is-error' });
  const start = () => {
    // "Try again" pressed: the focus goes on to the text it opens, not to the page's top.
    const hadFocus = failed.contains(document.activeElement);
    failed.remove();
    editor ??= import('./policy.js').then(({ setUpPolicyEditor }) => setUpPolicyEditor({ panel, widgetRoot: root, diagram }))
      .catch((error) => {
        editor = null;
        console.warn(`bucketlab: the Config tab's editor did not load: ${error?.message ?? error}`);
        panel.querySelector('.policy-static').append(failed);
        showFailure(failed, start);
        throw error;
      });
    editor.then((opened) => {
      opened.start();
      if (hadFocus) panel.querySelector('.policy-text').focus();
    }, () => {});
  };
  return start;
}

/**
 * For the other language's page: each acted-in diagram's recording (too long: B, r, c only),
 * whether it ran, and the past moment it showed, if one (a teacher stepping through it in class
 * goes on from that step). A replayed link's own goes in the address instead, which wins over
 * this, and its moment goes with it. And the quick check's answers so far.
 */
function recordings() {
  const widgets = {};
  for (const name of ['hero', 'diagram']) {
    const handle = window.bucketlab[name];
    try {
      const s = handle?.scenario;
      // The moment on the recording's clock, which starts a second before its first action (its
      // fifth field is its end, the session's now): as far before its end as before now here.
      const at = handle?.traveling ? Math.max(0, Number(s.split('_')[4]) - (handle.now - handle.viewTime)) : null;
      if (handle && acted(s)) widgets[name] = { s, running: !handle.paused, at };
    } catch {}
  }
  // The quick check's first answers, as the lab shows them, or as they came if it never loaded here;
  // the same for the lab's lanes and "Several servers".
  const parts = {
    comparison: window.bucketlab.lab?.comparison.settings ?? keptPart('comparison'),
    servers: window.bucketlab.servers?.saved ?? keptPart('servers'),
  };
  return { widgets, quiz: window.bucketlab.lab?.quiz.answers ?? keptAnswers(), parts };
}

async function start() {
  const handoff = takeHandoff();
  // An LMS's kept answers (www/lms/lesson.js) give way to the other page's, unless it had none.
  if (Object.keys(handoff?.quiz ?? {}).length) keepAnswers(handoff.quiz);
  // A lab link's lanes (#lab=…) too, which the lab reads and checks when it mounts.
  keepParts({ ...handoff?.parts, ...(link.values.lab !== undefined && { labLink: link.values.lab }) });
  // Before the reader's section is scrolled to: an answer left open there is open here too.
  openAsHanded(handoff);
  const rejected = [...link.rejected];
  if (askedLang === null) {
    rejected.push({ name: 'lang', value: cut(params.get('lang')), allowed: 'allowed_lang' });
  }
  rejected.push(...refusedSettings(location.search));

  const diagram = () => window.bucketlab.diagram;
  let playedScenario;
  // Whether the diagram opens at the past moment the reader had reached on the other page.
  let keptMoment = false;
  /** Whether `handle` still holds the replayed link's recording as it came, nothing added. */
  const stillPlayed = (handle) => {
    try {
      return handle.scenario === playedScenario;
    } catch {
      return false;
    }
  };
  const state = () => {
    const handle = diagram();
    return {
      b: handle?.capacity,
      r: handle?.refillRate,
      // NaN while the cost field holds a refused value: the link then leaves c out.
      c: handle?.cost || undefined,
      lang: pageLang(),
      tab: tabs.selected,
      code: tech.selected,
      // The scenario stays in the link while the reader is stepping through it, until they act
      // in it (then their own recording goes across as any other: see recordings()).
      s: handle?.traveling && stillPlayed(handle) ? playedScenario : undefined,
      // So does a lab link while the lab shows its lanes (or has not loaded): a reload, or a phone
      // that dropped the tab, opens them again.
      lab: (window.bucketlab.lab ? window.bucketlab.lab.comparison.openedLink : link.values.lab) ?? undefined,
    };
  };
  // Once the reader changes something, the address bar holds the permalink of what they see.
  const updateHash = () => {
    if (!diagram()) return;
    history.replaceState(OWN_ENTRY, '', `${location.pathname}${location.search}${permalinkHash(state())}`);
  };
  ownEntryReached = updateHash;
  // The address the page opened with is its own too: Back to it is no new link either. (A
  // document with an opaque origin, in a sandbox, may not touch its history: nothing to keep.)
  try {
    history.replaceState(OWN_ENTRY, '');
  } catch {}

  const startPolicy = policyEditor(document.getElementById('codigo-configuracao'), diagram);
  const tabs = setUpTabs(document.querySelector('[data-tabs]'), {
    initial: link.values.tab,
    onChange: (tab) => {
      if (tab === 'config') startPolicy();
      updateHash();
    },
  });
  const tech = setUpTechToggle(document.querySelector('.tech-toggle'), {
    initial: link.values.code,
    onChange: updateHash,
  });
  setUpCopyButtons();
  wireLanguageLinks((lang) => (diagram() ? permalinkHash({ ...state(), lang }) : ''), recordings);
  followDecisions(root);

  const permalink = document.querySelector('.permalink');
  const permalinkUrl = () => shareableUrl(state());
  wireCopyButton(permalink.querySelector('button'), permalinkUrl);
  // The link's address is the state of the moment whenever it is about to be used: followed,
  // opened in a new tab (middle click), copied from the context menu, or focused from the keyboard.
  const permalinkLink = permalink.querySelector('a');
  for (const type of ['pointerenter', 'pointerdown', 'focus', 'contextmenu', 'click']) {
    permalinkLink.addEventListener(type, () => {
      if (diagram()) permalinkLink.href = permalinkUrl();
    });
  }
  // Followed here (a plain click or Enter), it puts that address in the address bar and says so,
  // rather than load the page again from it: the diagram's requests and the place on the page
  // stay. A new tab or window (a middle or modified click) opens it as any link.
  permalinkLink.addEventListener('click', (event) => {
    if (!diagram() || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The reader's own address keeps all it had (an LMS's launch, which a reload needs).
    history.replaceState(OWN_ENTRY, '', `${location.pathname}${location.search}${permalinkHash(state())}`);
    const announcer = document.getElementById('copy-announcer');
    announcer.textContent = t('permalink_in_address');
    setTimeout(() => {
      if (announcer.textContent === t('permalink_in_address')) announcer.textContent = '';
    }, 4000);
  });
  // "Watch this": a link that replays the reader's actions so far, step by step.
  wireCopyButton(permalink.querySelector('.scenario-copy'), () => {
    if (!diagram()) return '';
    let scenario;
    try {
      scenario = diagram().scenario;
    } catch (error) {
      // Too much for a link (over 200 actions or 2000 characters, or longer than an hour): said
      // beside the button, in the page's language; the core's exact reason goes to the console.
      console.warn(`bucketlab: ${error.message}`);
      const [seconds] = error.problem?.scenario === 'seconds' ? error.problem.values : [];
      const localized = seconds === undefined ? t('scenario_too_long') : t('scenario_too_long_seconds', { n: seconds });
      throw Object.assign(new Error(error.message), { localized });
    }
    return shareableUrl({ lang: pageLang(), s: scenario });
  });

  for (const name of ['capacity', 'refill-rate', 'tokens']) {
    if (params.has(name)) root.setAttribute(`data-${name}`, params.get(name));
  }
  let loaded = false;
  try {
    // A download the network broke is tried again, the widgets' markup kept with its queued clicks.
    await loadRetrying(init, () => sayRetrying([hero, root], translator(elementTables, pageLang())('wasmRetrying')));
    loaded = true;
    // Said once the core has arrived, so the line it suggests works as soon as it is read.
    console.info(t('console_hello'));
    // B and r from the permalink are checked by the core before the diagram sees them, each on
    // its own (neither rule depends on the other), so the notice names the one refused, never a
    // good one beside it, nor one for a wrong ?capacity= in the query (the widget names that).
    const { b, r } = link.values;
    if (b !== undefined || r !== undefined) {
      const allowed = (config) => {
        try {
          new TokenBucket(config).free();
          return true;
        } catch {
          return false;
        }
      };
      const badB = b !== undefined && !allowed({ capacity: b, refillRate: 1 });
      const badR = r !== undefined && !allowed({ capacity: 1, refillRate: r });
      if (badB) rejected.push({ name: 'b', value: String(b), allowed: 'allowed_b' });
      if (badR) rejected.push({ name: 'r', value: String(r), allowed: 'allowed_r' });
      if (!badB && !badR) {
        if (b !== undefined) root.dataset.capacity = String(b);
        if (r !== undefined) root.dataset.refillRate = String(r);
        root.removeAttribute('data-tokens');
      }
    }
    // The hero first: it is on the first screen. Same B, r and tokens as the diagram below.
    for (const name of ['capacity', 'refillRate', 'tokens']) {
      if (root.dataset[name] !== undefined) hero.dataset[name] = root.dataset[name];
    }
    expose('hero', mountDiagram(hero), hero);
    // A trap leaves the module unusable: show an error instead of a frozen widget (from the
    // moment the hero can be clicked).
    onWasmTrap((error) => {
      window.bucketlab.diagram = null;
      window.bucketlab.hero = null;
      showError(root, t('widget_crashed'), error);
      showError(hero, t('widget_crashed'), error);
    });
    // The hero is live: the full diagram mounts in a task of its own, so that a click or a key on
    // the first screen does not wait for the larger widget's set-up.
    await (globalThis.scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve)));
    expose('diagram', mountDiagram(root), root);
    // The link's c is the cost field's, as the reader left it (a cost of 3 sent, then 2 typed: 2),
    // set once the bucket it belongs to is there: a recording's, or else the diagram's. setCost
    // refuses a cost that does not fit in it (a request that could never pass).
    const setCost = () => {
      if (link.values.c === undefined) return;
      try {
        diagram().setCost(link.values.c);
      } catch {
        rejected.push({ name: 'c', value: String(link.values.c), allowed: 'allowed_c' });
      }
    };
    // A scenario replaces the session; the core checks its text first.
    if (link.values.s !== undefined) {
      try {
        diagram().playScenario(link.values.s);
        // As the core writes it back (`.5` → `0.5`), which `handle.scenario` is compared with.
        playedScenario = diagram().scenario;
        // The recording sets B and r: a b or r of the link's own that differs is named, not
        // dropped without a word (the page's own links carry the recording's). One given twice
        // is named for that too: the first, kept by the link, is still not the recording's.
        const played = diagram();
        for (const [name, value, set] of [['b', link.values.b, played.capacity], ['r', link.values.r, played.refillRate]]) {
          if (value !== undefined && value !== set) {
            rejected.push({ name, value: String(value), reason: 'reason_recording_sets', reasonValues: { name: name === 'b' ? 'B' : 'r', set: formatNumber(set) } });
          }
        }
      } catch (error) {
        rejected.push({ name: 's', value: cut(link.values.s), allowed: 'allowed_s', detail: error.message, problem: error.problem });
      }
    }
    setCost();
    // From the other language's page: each diagram goes on as the reader left it (as the hero's link does).
    for (const [name, { s, running, at }] of Object.entries(handoff?.widgets ?? {})) {
      const handle = window.bucketlab[name];
      if (name === 'hero' || playedScenario === undefined) {
        if (carry(handle, s, running, at) && name === 'diagram') keptMoment = true;
      } else if (s === playedScenario && typeof at === 'number') {
        // The link's recording, stepped through on the other page: on from the same step.
        try {
          handle.seek(at);
          keptMoment = true;
        } catch {}
      }
    }
    // The recording leaves the cost field at its last request's cost; the link's c is the one the
    // reader left it at (a cost of 3 sent, then 2 typed: 2). Already checked against this B above.
    if (handoff?.widgets?.diagram && playedScenario === undefined && link.values.c !== undefined) {
      try {
        diagram().setCost(link.values.c);
      } catch {} // refused above already, and named in the notice
    }
    carryHeroOnItsLink();
    endReplayNoticeOnLeaving();
    permalink.hidden = false;
    root.addEventListener('bucketlab:config', updateHash);
    root.addEventListener('change', updateHash);
    // The lab's own lanes run in place of a lab link's: the address no longer holds the link.
    document.getElementById('algorithm-lab')?.addEventListener('bucketlab:lanes', () => {
      if (readPermalink(location.hash).values.lab !== undefined) updateHash();
    });
    if (tabs.selected === 'config') startPolicy();
    performance.mark('bucketlab:interactive');
  } catch (error) {
    // The module did not load: both diagrams say so (the hero's queued clicks go with its button).
    // A bad setting: the widget that met it already shows it (mountDiagram); the other one, not
    // mounted, shows it too. Never a blank space, nor a hero that looks alive and isn't.
    // A widget already live keeps working; the error still reaches the console.
    // A module that did not download (a dropped connection, a file a new release replaced) is
    // said to the learner with the way out, not in the browser's English; a policy that refuses
    // WebAssembly, the site's own mistake, and a browser without it, as the element says them.
    const words = translator(elementTables, pageLang());
    const title = words(loaded ? 'buildFailed' : 'loadFailed');
    const live = [hero, root].filter((widget) => widget.querySelector('.bl-widget[data-live]'));
    if (live.length || !loaded) console.error(error);
    const kind = loadFailure(error)?.kind;
    const said = loaded ? null : kind === 'policy' || kind === 'off' ? words(kind === 'off' ? 'wasmOff' : 'wasmPolicy')
      : notDownloaded(error) ? t('widget_not_downloaded') : error;
    for (const widget of [hero, root]) {
      if (!live.includes(widget) && !widget.querySelector('.bl-error')) showError(widget, title, loaded ? mountErrors(widget, error) : said);
    }
  }

  if (rejected.length) {
    // A refused scenario's reason is worded from the core's refusal as data by scenario-reason.js
    // (loaded only then), the same way in both languages, with the lesson's names (B, r, c…); the
    // core's exact sentence, with its own field names, goes to the console.
    const { scenarioReason } = rejected.some((r) => r.problem) ? await import('./scenario-reason.js') : {};
    // The first few are named; a link with hundreds of bad entries gets a count for the rest, not
    // a notice screens long that a screen reader would read out whole.
    const items = rejected.slice(0, NOTICE_ITEMS).map(({ name, value, allowed, detail, problem, reason, reasonValues }) => {
      if (detail) console.warn(`bucketlab: ${name} = "${value}": ${detail}`);
      const why = reason ? t(reason, reasonValues) : problem ? scenarioReason(problem, link.values.s) : '';
      // A value refused for a reason of its own, not a rule (the recording sets it), has no "expected".
      return t(!allowed ? 'notice_item_why' : why ? 'notice_item_reason' : 'notice_item', { name, value, reason: why, allowed: allowed && t(allowed) });
    });
    if (rejected.length > NOTICE_ITEMS) items.push(t('notice_more', { count: rejected.length - NOTICE_ITEMS }));
    showNotice(t(rejected.length === 1 ? 'notice_ignored_one' : 'notice_ignored', { list: items.join('; ') }));
  }
  // A replay link is about the diagram: take the reader there, focus on the timeline that plays it.
  if (playedScenario !== undefined) {
    showReplay(keptMoment);
  } else if (handoff || resumedAt) {
    if (keptMoment) showReplayNotice(true);
    // From the other language's page, or a later sitting an LMS resumes: where the reader was
    // there, the focus too (its heading), so the next Tab and a screen reader go on from there,
    // not from the top.
    const section = readingSection(handoff ? handoff.at : resumedAt);
    if (section) {
      scrollToKept(section);
      const heading = section.querySelector('h2') ?? section;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  } else if (link.values.lab !== undefined) {
    // A link to the lab's lanes is about them: the lab loads as it comes near, and runs them.
    scrollToKept(document.getElementById('algorithm-lab'));
  } else if (isPermalink(location.hash) && ['b', 'r', 'c', 'tab'].some((k) => k in link.values) && !document.referrer.startsWith(location.origin)) {
    // A link shared from elsewhere: one that opens a later tab (Configuration, Usage) is about the
    // code; any other carries the diagram's state ("Copy a link to these settings", under it) and is
    // about the diagram.
    scrollToKept(document.getElementById(link.values.tab && link.values.tab !== 'algorithm' ? 'codigo' : 'diagrama'));
  } else if (rejected.length) {
    // A refused link's notice sits under the hero, below a phone's first screen: brought into
    // view, or the reader would see an ordinary page and never learn the link was refused. It
    // takes the focus too, as an accepted replay's does: a status filled while the page loads is
    // not reliably spoken.
    const notice = document.getElementById('page-notice');
    notice.tabIndex = -1;
    notice.focus({ preventScroll: true });
    if (notice.getBoundingClientRect().bottom > innerHeight) notice.scrollIntoView({ block: 'center' });
  }
  // So is a replay another part put in the diagram ("Your traffic": `bucketlab:replayed`).
  // (Its argument is no `kept`: a replay from "Your traffic" opens at its first moment.)
  document.addEventListener('bucketlab:replayed', () => showReplay());
}

/**
 * Says a replay is in the diagram, takes the reader there and focuses a control that steps it in
 * view with the bucket: the timeline, else "Step 0.1 s", below the notice; on a touch screen, else
 * the notice with the bucket under it; else that control below the window's top; if none fits, the
 * notice.
 */
function showReplay(kept = false) {
  const notice = showReplayNotice(kept);
  const widget = root.querySelector('.bl-widget') ?? root;
  // The sections are `content-visibility: auto` until laid out: one far from the window is
  // skipped, and Firefox then measures inside it as it was before the diagram filled its panel
  // (Chromium lays it out for the measure). It is about to be shown anyway.
  root.closest('main > section')?.classList.add('laid-out');
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  // Whether `control` is in the window once `anchor` is scrolled to its top.
  const fits = (anchor, control) => {
    const box = control?.getBoundingClientRect();
    return box?.height > 0 && box.bottom - anchor.getBoundingClientRect().top + padding <= innerHeight;
  };
  const controls = [root.querySelector('.bl-scrub'), root.querySelector('.bl-step:not(:disabled)')];
  // Each way to show it: [what goes to the top, what gets the focus, what must fit below the top].
  // On a touch screen (a phone, where the timeline is far below the bucket) the notice and the
  // bucket rather than the bucket and a timeline under the finger: the notice says how to play it.
  const ways = matchMedia('(pointer: coarse)').matches
    ? [...controls.map((c) => [notice, c, c]), [notice, notice, root.querySelector('.bl-bucket')], ...controls.map((c) => [widget, c, c])]
    : controls.flatMap((c) => [[notice, c, c], [widget, c, c]]);
  const [anchor, control] = ways.find(([a, , shown]) => fits(a, shown)) ?? [notice, notice];
  if (control === notice) notice.tabIndex = -1;
  scrollToKept(anchor);
  control.focus({ preventScroll: true });
}

/**
 * The hero's link (to the diagram's controls, response and timeline) carries the hero's recording
 * into that diagram, live and running if the hero ran: into a diagram not used yet, or holding
 * only what this link carried before (replaced by the hero's longer recording), and says so above
 * the diagram until the reader acts there. Over the reader's own actions there it carries nothing,
 * and says why above the diagram.
 */
function carryHeroOnItsLink() {
  // The diagram's actions just after the last carry; its end time moves on while it runs.
  let carried = null;
  // Whether the notice says the hero's requests were carried (until the reader acts here).
  let saidCarried = false;
  const actions = (scenario) => scenario.split('_').filter((_, i) => i !== 4).join('_');
  document.querySelector('.hero-more a')?.addEventListener('click', () => {
    const { hero: from, diagram: to } = window.bucketlab;
    if (!from || !to) return;
    try {
      if (!acted(from.scenario)) return;
      if (acted(to.scenario) && actions(to.scenario) !== carried) {
        diagramNotice('hero-carry-notice', t('hero_not_carried'));
        saidCarried = false;
        return;
      }
      carry(to, from.scenario, !from.paused);
      carried = actions(to.scenario);
      // Said where the reader lands (and to a screen reader): the diagram goes on from the hero's
      // requests; the note goes once the reader acts here.
      diagramNotice('hero-carry-notice', t('hero_carried'));
      saidCarried = true;
    } catch {} // too long for a scenario: the diagram stays as it is
  });
  // The reader's first action in the diagram (a control used, not a click on its text) ends the
  // "carried" note, which would no longer say how things stand.
  const acting = (event) => {
    if (saidCarried && event.target.closest('button, input, select, [role="slider"]')) {
      saidCarried = false;
      diagramNotice('hero-carry-notice', null);
    }
  };
  root.addEventListener('click', acting);
  root.addEventListener('input', acting);
}

/**
 * Ends the replay notice (how to play the recording) once the reader leaves the recording: a
 * request decided in the diagram (sent, or its traffic running on live) or a reset. It would no
 * longer say how things stand.
 */
function endReplayNoticeOnLeaving() {
  const end = () => diagramNotice('replay-notice', null);
  root.addEventListener('bucketlab:decision', end);
  root.addEventListener('click', (event) => {
    if (event.target.closest('.bl-reset')) end();
  });
}

/**
 * The notice `id` just above the diagram (role status: read when its text changes; the page's
 * template may hold it from the start, empty), showing `text`, or empty when `text` is null.
 * Returns the notice (one per id, reused).
 */
function diagramNotice(id, text) {
  let notice = document.getElementById(id);
  if (!notice && text === null) return null;
  if (!notice) {
    notice = document.createElement('p');
    notice.className = 'notice';
    notice.id = id;
    notice.setAttribute('role', 'status');
    root.before(notice);
  }
  // Emptied rather than hidden: a status out of the accessibility tree is not announced when its
  // words come back (.notice:empty takes no room).
  notice.textContent = text ?? '';
  return notice;
}

/**
 * Says, just above the diagram, that it holds a recording (a "replay what you did" link, a client
 * from "Your traffic") and how to play it: it opens stopped at its first moment, which would
 * otherwise look like a fresh diagram, or (`kept`) at the moment the reader had reached on the
 * other language's page. Returns the notice.
 */
function showReplayNotice(kept = false) {
  return diagramNotice('replay-notice', t(kept ? 'replay_kept' : 'replay_loaded'));
}
