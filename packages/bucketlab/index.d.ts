// Types of the bucketlab module: the token bucket for scripts and the diagram for pages.
// `[Symbol.dispose]` (wasm-bindgen's, for `using`) needs the disposable lib, which a project's
// usual lib setting (es2022, dom) leaves out: the reference brings it in (TypeScript 5.2 or later).
/// <reference lib="esnext.disposable" />
// The diagram's and `init`'s parameters are DOM types, looked up on the project's own globals
// (`Dom`) rather than brought in with the dom lib: a Node project (lib es2022, no dom) is not
// given a `document` or `window` it would not have at run time, and mountDiagram takes nothing there.

/** A global class's instance type (`Dom<'Element'>` is Element), or `never` where it is not declared. */
type Dom<Name extends string> = typeof globalThis extends { [K in Name]: { prototype: infer T } } ? T : never;
/** A compiled `WebAssembly.Module`, or `never` where the WebAssembly types are not declared. */
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;
/** Bytes: what the dom lib calls a BufferSource. */
type Bytes = ArrayBuffer | ArrayBufferView;

/** `new TokenBucket(config)`: `B`, `r` and optionally the tokens it starts with (default: full). */
export interface BucketConfig {
  /** `B`, the most tokens the bucket holds: a finite number greater than 0. */
  capacity: number;
  /** `r`, tokens added per second: a finite number of at least 0. */
  refillRate: number;
  /** Tokens at the start, from 0 to `capacity`; full when left out. */
  tokens?: number | undefined;
}

/** Why a request can never pass: its cost is more than `B`, or the bucket lacks tokens and `r` is 0. */
export type Never = 'costExceedsCapacity' | 'noRefill';

/** The answer to `tryAcquireAt`. */
export interface Decision {
  allowed: boolean;
  /** Tokens left after the call. */
  tokens: number;
  /** Seconds to wait: 0 when allowed; `null` when the request can never pass (`never` says why), or
   * when the wait is longer than a number can hold (an `r` so small, 1e-320/s, that the wait
   * overflows: no Retry-After can be given, though a wait would end). */
  retryAfter: number | null;
  /** Why it can never pass, else `null`. */
  never: Never | null;
}

/** A token bucket with lazy refill; time is passed in, in seconds. Bad values throw an `Error`
 * naming the field, the value and what is allowed (a refused number also has `problem`, as
 * {@link SettingError}'s).
 *
 * Its clock starts at the first `tryAcquireAt`: until then it holds its starting tokens whatever
 * time `tokensAt` is asked about. To refill from its creation, call `tryAcquireAt(0, now)` then.
 * A time earlier than the latest one given counts as no time passing (it never refills backwards),
 * so give every call the same clock and unit: seconds from your process's start
 * (`performance.now() / 1000`) rather than from 1970 (see `tryAcquireAt`'s tolerance). */
export class TokenBucket {
  constructor(config: BucketConfig);
  /** Asks for `cost` tokens (at least 0) at `nowSeconds`; a denied request changes nothing. It
   * is admitted when the bucket holds `cost`, or lacks no more than the core's rounding tolerance:
   * 1e-12·B tokens plus what the refill brings in the larger of 1 ns and 4·2⁻⁵²·|nowSeconds| (4 to
   * 8 units in its last place), so that a retry exactly `retryAfter` later passes although that
   * sum is rounded. What a request let in short lacks is owed and paid back first, so requests at
   * one moment exceed the tokens by that tolerance at most, together. At seconds since 1970
   * (≈1.7e9) it is 1.5 µs of refill: at r = 10⁷/s, 15 tokens more than the bucket holds; at
   * seconds since your process started, 1 ns (0.01 tokens at that rate). */
  tryAcquireAt(cost: number, nowSeconds: number): Decision;
  /** Tokens the bucket holds at `nowSeconds`, without changing it (its starting tokens until the
   * first `tryAcquireAt`). */
  tokensAt(nowSeconds: number): number;
  /** `B`. */
  readonly capacity: number;
  /** `r`, tokens per second. */
  readonly refillRate: number;
  /** Releases the bucket's wasm memory. */
  free(): void;
  [Symbol.dispose](): void;
}

/** The names `showControls` and the element's `controls` attribute accept. */
export type ControlGroup = 'send' | 'cost' | 'burst' | 'bucket' | 'traffic' | 'time';

/** A mounted diagram. */
export class BucketDiagram {
  private constructor();
  /** Sends one request of `cost` now (default: the cost in the cost field, as the send button does);
   * returns whether it was admitted. A refused argument throws, and shows in the widget too. */
  send(cost?: number): boolean;
  /** Decides a click on the send button made at `wallMs` (ms of `performance.now()`), with the
   * cost in the cost field, as the click would have been then; returns whether it took effect
   * (`false` only while the cost field holds a value it refuses), not whether it was admitted, as
   * `send` does: the `bucketlab:decision` event and `tokens` say that. A time before the bucket's last decision is decided just after it (its clock never goes back). */
  sendAt(wallMs: number): boolean;
  /** Stops lesson time, as the pause button does; at a past moment, stops the recording's playback. */
  pause(): void;
  /** Lets lesson time run again, as the resume button does; at a past moment, plays the recording
   * on from there (`live()` goes back to the live session). */
  resume(): void;
  /** Moves lesson time forward by `seconds` (from 0 to 3600) and redraws. */
  step(seconds: number): void;
  /** Shows the moment `seconds` (default 0.1, at least 0) earlier than the one shown, as "Step
   * back" does, stopping at the earliest moment the timeline holds; lesson time stops meanwhile. */
  stepBack(seconds?: number): void;
  /** Shows lesson time `t` (from 20 s before now, or 0, to now), replayed through the core; a
   * `t` outside that range throws, naming it. */
  seek(t: number): void;
  /** Back to the live session, as "Back to live" does. */
  live(): void;
  /** Replaces the session with the scenario in `text` (a `#s=` link's value) and shows its first
   * moment, stopped, to step through; a bad text throws an `Error` and changes nothing. */
  playScenario(text: string): void;
  /** Sets `B` and `r` live, keeping the tokens so far (capped at the new `B`). */
  configure(capacity: number, refillRate: number): void;
  /** The cost the buttons send: a whole number from 1 to `B`. */
  setCost(cost: number): void;
  /** `"all"`, `"none"`, or control groups separated by spaces or commas. */
  showControls(list: 'all' | 'none' | ControlGroup | (string & {})): void;
  /** Tokens at the moment shown (now, or the past moment), unrounded. */
  readonly tokens: number;
  /** Lesson time in seconds: since mounting, or on a played scenario's clock. */
  readonly now: number;
  /** The lesson time shown: `now`, or the past moment. */
  readonly viewTime: number;
  /** Whether a past moment is shown. */
  readonly traveling: boolean;
  /** The session so far as a scenario's text, for a `#s=` link; throws if too long for one. */
  readonly scenario: string;
  /** Whether an animation frame is scheduled (only while something moves). */
  readonly isAnimating: boolean;
  /** `B` live, as the next request meets it: at a past moment (`traveling`) the diagram shows that
   * moment's `B`, and `tokens` that moment's level, but this stays the live value. */
  readonly capacity: number;
  /** `r` live, as `capacity` is. */
  readonly refillRate: number;
  /** The cost a request sent with the buttons takes: the cost field's value (`NaN` while it holds one it refuses). */
  readonly cost: number;
  readonly paused: boolean;
  /** `'pt-BR'` or `'en'`. */
  readonly lang: string;
  /** Stops the frame loop, removes listeners and observers, empties the element. */
  free(): void;
  [Symbol.dispose](): void;
}

/** Mounts the diagram into `root`, configured by `data-capacity`, `data-refill-rate`,
 * `data-tokens`, `data-lang` (`en`, `pt-BR` or another tag of those languages) and `data-paused`. Needs `widget.css` on the page. `root` may hold
 * the widget's build-time markup already; otherwise it is put in. Clicks on send made before the
 * module was ready are decided at their own times. Lesson time 0 is at `sinceMs` (a
 * `performance.now()` time, default now), so that `sendAt` takes clicks from then on. A bad value
 * is shown inside `root` as an alert naming the attribute, and thrown. */
export function mountDiagram(root: Dom<'Element'>, sinceMs?: number): BucketDiagram;

/** Reads an attribute's text (`capacity`, `refill-rate`, `tokens`, `cost`) as a number; throws
 * a {@link SettingError} that names the attribute, and says the same to a reader in `lang`
 * (`'pt-BR'`, the default, or `'en'`) in its `localized`. */
export function checkSetting(name: 'capacity' | 'refill-rate' | 'tokens' | 'cost', text: string, capacity?: number | null, lang?: 'pt-BR' | 'en' | null): number;

/** What `checkSetting` and `mountDiagram` throw for a bad value (and the diagram's methods for a
 * refused argument): `message` names the setting as the API spells it, the value and what is
 * allowed; `localized` says it for a person, in the language asked for, with the field's label as
 * the widget shows it; `problem` is the same as data, for a page to word itself. */
export interface SettingError extends Error {
  localized: string;
  problem: {
    field: string;
    rule: 'positive' | 'nonNegative' | 'upTo' | 'positiveUpTo' | 'between' | 'whole' | 'finite';
    min?: number;
    max?: number;
    given?: number | string;
    tooLarge: boolean;
    tooSmall: boolean;
    ambiguous: boolean;
    type?: string;
  };
}

/** What `init` and `initSync` accept: the wasm (bytes, a compiled module, a URL or a response). */
export type InitInput = string | Dom<'Request'> | Dom<'URL'> | Dom<'Response'> | Bytes | WasmModule;

/** Loads the wasm (by default from next to this module) before first use in a browser; in
 * Node the package's entry has already done it. Resolves once, however often it is called. */
export default function init(input?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<unknown>;

/** Instantiates the wasm synchronously from its bytes or a compiled module. */
export function initSync(input: { module: Bytes | WasmModule }): unknown;
