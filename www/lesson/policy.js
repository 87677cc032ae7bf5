// The Config tab: the YAML policy, editable. Parsed by its own wasm module (pkg/bucketlab_config),
// loaded the first time the tab opens. A valid edit reconfigures the widget with the chosen tier;
// an invalid one is explained (line, field, rule) and the widget keeps its last good config. The
// chosen tier's lines follow the widget's B and r when they change there.
import { readings, thousandsLike, typedNumber } from '../i18n/typed-number.js';
import { cut } from '../i18n/translate.js';
import { formatNumber, t } from './strings.js';
import { showFailure } from './lazy.js';

const DEBOUNCE_MS = 150;
/**
 * The most the editor reads: a policy is a few tiers, and the YAML parser's time grows with the
 * square of the nesting of [ and { (40,000 deep froze the tab 12 s on every keystroke).
 */
const MAX_CHARS = 20_000;
const MAX_DEPTH = 32;

/**
 * How deep `text` nests flow collections ([ and {), outside quotes and comments. As in YAML, a
 * quote opens a quoted scalar only where a scalar starts (a line's start, after `:`, `-`, `?`, `,`,
 * `[` or `{`); the apostrophe in `note: it's` is text.
 */
function flowDepth(text) {
  let depth = 0;
  let deepest = 0;
  let quote = null;
  let comment = false;
  // The last character that is not a space or tab on this line ('' at its start).
  let before = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const last = before;
    if (c === '\n') before = '';
    else if (c !== ' ' && c !== '\t') before = c;
    if (comment) {
      if (c === '\n') comment = false;
    } else if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = null;
    } else if ((c === '"' || c === "'") && ['', ':', '-', '?', ',', '[', '{'].includes(last)) {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      comment = true;
    } else if (c === '[' || c === '{') {
      depth += 1;
      deepest = Math.max(deepest, depth);
    } else if (c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

let parserModule = null;

/** Loads the parser once; later calls share the same promise. */
function loadParser() {
  parserModule ??= import('../pkg/bucketlab_config.js').then(async (module) => {
    await module.default();
    return module;
  }).catch((error) => {
    // Not kept (its code or its wasm): "Try again", or opening the tab again, tries again.
    parserModule = null;
    throw error;
  });
  return parserModule;
}

/**
 * `text` with tier `tier`'s `capacity` and `refill_rate` set to `b` and `r`, for block-style YAML
 * (`tiers:` → `  name:` → `    capacity: 10`); other text is returned unchanged. The comments stay,
 * in their column.
 */
export function withTierValues(text, tier, b, r) {
  const lines = text.split('\n');
  let inTiers = false;
  let inTier = false;
  let tierIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\S/.test(line)) {
      inTiers = /^tiers:\s*(#.*)?$/.test(line);
      inTier = false;
      continue;
    }
    if (!inTiers || !line.trim() || line.trim().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    const key = line.trim().match(/^([\w-]+):\s*(#.*)?$/);
    if (key && (tierIndent < 0 || indent === tierIndent)) {
      tierIndent = indent;
      inTier = key[1] === tier;
      continue;
    }
    if (inTier && indent > tierIndent) {
      // The value replaced, its comment kept in its column (one space at least).
      const set = (value) => (_all, head, old, gap, comment) => (comment
        ? `${head}${value}${' '.repeat(Math.max(1, old.length + gap.length - String(value).length))}${comment}`
        : `${head}${value}${gap}`);
      lines[i] = line
        .replace(/^(\s+capacity:\s*)([^\s#]+)(\s*)(#.*)?$/, set(b))
        .replace(/^(\s+refill_rate:\s*)([^\s#]+)(\s*)(#.*)?$/, set(r));
    }
  }
  return lines.join('\n');
}

/** Whether `given` (a number's YAML text) is not finite: 1e400 (too large for a double), .inf. */
const tooLarge = (given) => Math.abs(typedNumber(String(given))) === Infinity || /^[-+]?\.inf$/i.test(given);

/** The locale key of what belongs where a value of the wrong type was written (`problem.expected`). */
const EXPECTED = {
  boolean: 'expected_boolean',
  status: 'expected_status',
  number: 'expected_number',
  mapping: 'expected_mapping',
};

/** Where the error is: its line and field, as far as the parser knows them. */
function where({ line, path }) {
  if (line == null) return path ? t('err_where_path', { path }) : t('err_where_text');
  return path ? t('err_where', { line, path }) : t('err_where_line', { line });
}

/** The error, worded in the page's language. */
function describeError(error) {
  // What the YAML gave is quoted cut (a name or value can be any length); the data keeps it whole.
  const p = { ...error.problem };
  for (const key of ['given', 'name']) if (typeof p[key] === 'string') p[key] = cut(p[key]);
  const list = (items) => items.map((item) => `“${item}”`).join(t('list_separator'));
  const what = {
    syntax: () => t('err_syntax'),
    unknownField: () => t('err_unknown_field', { name: p.name, expected: list(p.expected) }),
    missingField: () => t('err_missing_field', { name: p.name }),
    unknownVariant: () => t('err_unknown_variant', { given: p.given, expected: list(p.expected) }),
    invalidType: () => (p.expected
      ? t('err_invalid_type_expected', { expected: t(EXPECTED[p.expected]) })
      : t('err_invalid_type')),
    // A comma in a number is text to YAML ("0,5", "1,000"): say how YAML writes the number, and
    // the thousands it could also mean only where it could (three digits after the comma).
    invalidValue: () => (/^[-+]?\d+,\d+$/.test(p.given)
      ? t(thousandsLike(p.given) ? 'err_decimal_comma' : 'err_decimal_comma_point', { field: p.field, given: p.given, ...readings(p.given) })
      : t(tooLarge(error.problem.given) ? 'err_too_large' : p.ruleKind === 'nonNegative' ? 'err_non_negative' : 'err_positive', { field: p.field, given: p.given })),
    // Text to YAML: say so, rather than "must be a number, but got 5".
    quotedNumber: () => t(p.ruleKind === 'nonNegative' ? 'err_non_negative_quoted' : 'err_positive_quoted', { field: p.field, given: p.given }),
    // Text to YAML without quotes (YAML 1.1 read 010 as octal): say why, not "in quotes".
    leadingZero: () => t('err_leading_zero', { given: p.given, number: p.number }),
    invalidStatus: () => t('err_status', { given: p.given }),
    missingDefaultTier: () => t('err_missing_default'),
    duplicateKey: () => t('err_duplicate_key', { name: p.name }),
    severalDocuments: () => t('err_several_documents'),
  }[p.kind]?.() ?? error.message;
  return `${where(error)} ${what}`;
}

/** Sets up the editor; `diagram()` returns the widget handle once mounted (or null). */
export function setUpPolicyEditor({ panel, widgetRoot, diagram }) {
  const staticBlock = panel.querySelector('.policy-static');
  const editor = panel.querySelector('.policy-editor');
  const textarea = editor.querySelector('textarea');
  const status = editor.querySelector('.policy-status');
  const goto = editor.querySelector('.policy-goto');
  /** The line the shown refusal names (Go to line's), or null. */
  let refusedLine = null;
  let lastGood = null;
  let started = false;
  let timer = 0;
  // Whether the status says the text is refused, or that the diagram left the text's values.
  let invalidShown = false;
  let diverged = false;

  const chosenTier = () => editor.querySelector('input[name=tier]:checked')?.value ?? 'default';
  const show = (message, invalid, { apart = false, line } = {}) => {
    invalidShown = invalid;
    diverged = apart;
    status.textContent = message;
    status.classList.toggle('is-error', invalid);
    refusedLine = line ?? null;
    goto.hidden = refusedLine === null;
    goto.textContent = refusedLine === null ? '' : t('policy_goto', { line: refusedLine });
    if (invalid) textarea.setAttribute('aria-invalid', 'true');
    else textarea.removeAttribute('aria-invalid');
  };

  function apply() {
    const handle = diagram();
    const tier = lastGood?.tiers[chosenTier()];
    if (!tier) {
      show(t('policy_missing_tier', { tier: chosenTier() }), true);
      return;
    }
    if (handle && (handle.capacity !== tier.capacity || handle.refillRate !== tier.refillRate)) {
      handle.configure(tier.capacity, tier.refillRate);
    }
    show(t('policy_applied', { tier: chosenTier(), b: formatNumber(tier.capacity), r: formatNumber(tier.refillRate) }), false);
  }

  async function check() {
    const { parsePolicy } = await loadParser();
    const text = textarea.value;
    const tooLarge = text.length > MAX_CHARS ? t('err_too_long', { n: formatNumber(text.length), max: formatNumber(MAX_CHARS) })
      : flowDepth(text) > MAX_DEPTH ? t('err_too_deep', { max: MAX_DEPTH }) : null;
    if (tooLarge) return show(`${tooLarge} ${t('policy_kept')}`, true);
    const result = parsePolicy(text);
    if (result.ok) {
      lastGood = result.policy;
      apply();
    } else {
      show(`${describeError(result.error)} ${t('policy_kept')}`, true, { line: result.error.line });
    }
  }

  /** Selects the line `line` (from 1) of the text, focused and scrolled into its view. */
  function goToLine(line) {
    const lines = textarea.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
    textarea.focus();
    textarea.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0), 'backward');
    // Two lines of context above it (the browser would bring it to the bottom edge only), from
    // its start (a long line's end would take the view sideways, away from its key).
    const height = parseFloat(getComputedStyle(textarea).lineHeight);
    if (height) textarea.scrollTop = Math.max(0, (line - 3) * height);
    textarea.scrollLeft = 0;
  }

  /**
   * Shows the widget's B and r in the chosen tier's lines; where they can't be rewritten (the tier
   * in flow style or an alias), the status says the diagram no longer runs what they say.
   */
  function mirror(capacity, refillRate) {
    const tier = lastGood?.tiers[chosenTier()];
    if (tier && tier.capacity === capacity && tier.refillRate === refillRate) {
      // Back at the text's values: applied again, as the status said before.
      if (diverged) apply();
      return;
    }
    const next = withTierValues(textarea.value, chosenTier(), capacity, refillRate);
    if (next !== textarea.value) {
      textarea.value = next;
      check();
    } else if (tier && !invalidShown) {
      show(t('policy_diverged', { tier: chosenTier(), b: formatNumber(capacity), r: formatNumber(refillRate) }), false, { apart: true });
    }
  }

  /** Whether the text and the tiers take the reader's input: not before the parser can read them. */
  const editable = (yes) => {
    textarea.readOnly = !yes;
    editor.querySelector('.tier-choice').disabled = !yes;
  };

  /** Opens the editor: loads the parser and shows the live values. Safe to call again. */
  async function start() {
    if (started) return;
    started = true;
    // "Try again" pressed (its line is rewritten below): the focus goes on to the text.
    if (status.contains(document.activeElement)) textarea.focus();
    textarea.value ||= staticBlock.querySelector('pre').textContent;
    staticBlock.hidden = true;
    editor.hidden = false;
    editable(false);
    show(t('policy_loading'), false);
    try {
      await loadParser();
    } catch (error) {
      // The network, or a new release replaced the file this page names: said as the other parts
      // say it, with the reload that fixes it; the browser's own words go to the console.
      console.warn(`bucketlab: the YAML parser did not load: ${error?.message ?? error}`);
      // The status line says it as an error; the YAML is not at fault, so the textarea is not
      // marked invalid.
      show('', false);
      status.classList.add('is-error');
      started = false;
      showFailure(status, start);
      return;
    }
    editable(true);
    const handle = diagram();
    if (handle) textarea.value = withTierValues(textarea.value, chosenTier(), handle.capacity, handle.refillRate);
    await check();
  }

  goto.addEventListener('click', () => goToLine(refusedLine));
  textarea.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, DEBOUNCE_MS);
  });
  editor.addEventListener('change', (event) => {
    if (event.target.name === 'tier' && lastGood) apply();
  });
  widgetRoot.addEventListener('bucketlab:config', (event) => {
    if (started && lastGood) mirror(event.detail.capacity, event.detail.refillRate);
  });
  return { start, check: () => check() };
}
