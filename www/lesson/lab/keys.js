// Limit keys: three clients share one server; the limit key (API token, IP, user, endpoint, or user
// and endpoint combined) decides which of them share a token bucket. Each bucket is the core's, run
// by simulate() over the merged requests of the clients that share it. The endpoint keys came with
// the "Designing good limits" section, so their words are in its table (defense.json).
import { checkOneOf } from '../checks.js';
import { el, uid } from './dom.js';
import { LaneChart } from './chart.js';
import defenseTables from '../../i18n/locales/defense.js';
import { translator } from '../../i18n/translate.js';

const LIMIT = 5;
const WINDOW = 1;
const DURATION = 6;

/** The clients: who they are, and when they send (seconds). */
const CLIENTS = [
  { id: 'web', token: 'tk_web_41', ip: '203.0.113.5', user: 'ana', endpoint: '/items/:id', traffic: { pattern: 'steady', rate: 2 } },
  { id: 'export', token: 'tk_exp_77', ip: '203.0.113.5', user: 'bruno', endpoint: '/export', traffic: { pattern: 'steady', rate: 12 } },
  { id: 'mobile', token: 'tk_app_19', ip: '198.51.100.7', user: 'bruno', endpoint: '/items/:id', traffic: { pattern: 'poisson', rate: 2.5 } },
];
const KINDS = ['token', 'ip', 'user', 'endpoint', 'userEndpoint'];
/** The kinds whose words are in the defense table. */
const ENDPOINT_KINDS = ['endpoint', 'userEndpoint'];

/** A client's key value for `kind`. */
const keyOf = (client, kind) => (kind === 'userEndpoint' ? `${client.user} × ${client.endpoint}` : client[kind]);

export class LimitKeys {
  constructor(root, { simulate, t }) {
    Object.assign(this, { root, simulate, t });
    this.kind = 'token';
    // Each client's own requests, from the core's traffic generator (seeded, so always the same).
    this.times = CLIENTS.map((c, i) => simulate({
      algorithms: ['tokenBucket'], traffic: c.traffic, duration: DURATION, seed: 7 + i, samples: 2,
    }).arrivals);
    this.render();
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  setKind(kind) {
    checkOneOf('limit key', kind, KINDS);
    this.kind = kind;
    this.render();
  }

  /** Runs one bucket per distinct key value; returns per client { outcomes, ok, denied, group }. */
  decide() {
    const groups = new Map();
    CLIENTS.forEach((c, i) => {
      const key = keyOf(c, this.kind);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(i);
    });
    const results = [];
    for (const [key, members] of groups) {
      const merged = members
        .flatMap((i) => Array.from(this.times[i], (time, n) => ({ time, client: i, n })))
        .sort((a, b) => a.time - b.time || a.client - b.client);
      const run = this.simulate({
        algorithms: ['tokenBucket'], limit: LIMIT, window: WINDOW, duration: DURATION, samples: 2,
        traffic: { pattern: 'pasted', timestamps: merged.map((m) => m.time) },
      });
      const outcomes = run.lanes[0].outcomes;
      for (const i of members) results[i] = { key, members, outcomes: new Uint8Array(this.times[i].length) };
      merged.forEach((m, j) => { results[m.client].outcomes[m.n] = outcomes[j]; });
    }
    for (const r of results) {
      r.denied = r.outcomes.filter((o) => o === 2).length;
      r.ok = r.outcomes.length - r.denied;
    }
    return results;
  }

  render() {
    const { t } = this;
    const more = translator(defenseTables, t.lang);
    const words = (key, kind) => (ENDPOINT_KINDS.includes(kind) ? more : t)(key);
    const time = this.chart?.time;
    this.chart?.destroy();
    const name = uid('lab-key');
    const radios = KINDS.map((kind) => {
      const id = uid('lab-key-kind');
      const input = el('input', { type: 'radio', name, id, value: kind, checked: kind === this.kind });
      input.addEventListener('change', () => {
        this.setKind(kind);
        this.root.querySelector(`input[value="${kind}"]`)?.focus();
      });
      return el('div', { class: 'lab-radio' }, [input, el('label', { for: id }, words(`keys.kinds.${kind}`, kind))]);
    });
    const results = this.decide();
    const rows = CLIENTS.map((c, i) => {
      const r = results[i];
      const others = r.members.filter((j) => j !== i).map((j) => t(`keys.clients.${CLIENTS[j].id}`));
      const share = others.length ? t('keys.shared', { others: others.join(', ') }) : t('keys.alone');
      return {
        key: c.id,
        name: t(`keys.clients.${c.id}`),
        detail: `${t('keys.sharing', { key: r.key })} · ${share}`,
        caption: `${t('keys.identity', { token: c.token, ip: c.ip, user: c.user })} · ${more('keys.endpoint', { endpoint: c.endpoint })}`,
        arrivals: this.times[i],
        outcomes: r.outcomes,
        delays: new Float64Array(r.outcomes.length),
      };
    });
    this.chart = new LaneChart({ t, duration: DURATION, limit: LIMIT, rows, width: this.root.clientWidth });
    if (time !== undefined) this.chart.seek(time);
    const summary = el('ul', { class: 'lab-key-summary' }, CLIENTS.map((c, i) => el('li', { 'data-client': c.id }, [
      el('strong', {}, t(`keys.clients.${c.id}`)), ': ', t('keys.counts', { ok: results[i].ok, denied: results[i].denied }),
    ])));
    const kinds = el('fieldset', { class: 'lab-key-kinds' }, [el('legend', {}, t('keys.keyBy')), ...radios]);
    const explained = words(`keys.explain.${this.kind}`, this.kind);
    const intro = t('keys.intro', { limit: LIMIT, window: WINDOW });
    if (this.parts) {
      // The explanation is a live region: it stays in place and only its words change, so a
      // screen reader says the new ones (a region inserted already filled is not spoken).
      this.intro.textContent = intro;
      this.explain.textContent = explained;
      // (The old chart may have taken itself out already: destroy() above.)
      for (const part of this.parts) part.remove();
      this.explain.before(kinds);
      this.explain.after(summary, this.chart.element);
    } else {
      this.intro = el('p', {}, intro);
      this.explain = el('p', { class: 'lab-key-explain', 'aria-live': 'polite' }, explained);
      this.root.replaceChildren(this.intro, kinds, this.explain, summary, this.chart.element);
    }
    this.parts = [kinds, summary, this.chart.element];
  }
}
