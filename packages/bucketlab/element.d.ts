// Types of the <bucket-lab> custom element (import 'bucketlab/element' once to define it): a DOM
// element, so these bring in the dom lib.
/// <reference lib="dom" />
import type { BucketDiagram, ControlGroup } from './index.js';

/** A tag of the element's two languages, in any case: `pt`, `pt-BR`, `pt-PT`, `en`, `en-GB`, `EN`… */
type LangPrefix = 'pt' | 'PT' | 'Pt' | 'pT' | 'en' | 'EN' | 'En' | 'eN';
export type LangTag = LangPrefix | `${LangPrefix}-${string}`;

/** The element's attributes, all optional; each one can change at run time. */
export interface BucketLabAttributes {
  /** `B`, a number greater than 0 (default 5). A decimal comma is accepted: `2,5`. */
  capacity?: string | number;
  /** `r`, tokens per second, at least 0 (default 1). */
  'refill-rate'?: string | number;
  /** Cost of each request the buttons send: a whole number from 1 to `B` (default 1). */
  cost?: string | number;
  /** Tokens at the start, from 0 to `B` (default full). */
  tokens?: string | number;
  /** `pt-BR` or `en`, or another tag of those languages in any case (`en-GB`, `pt-PT`, `EN`: read
   * by its first part); without it the element follows the page's `<html lang>` (any other
   * language: English; none: Brazilian Portuguese). */
  lang?: LangTag;
  /** What to show; `diagram` is the one view so far. */
  view?: 'diagram';
  /** `all` (default), `none`, or groups separated by spaces or commas: send cost burst bucket
   * traffic time. */
  controls?: 'all' | 'none' | ControlGroup | (string & {});
  /** Present (empty or `"true"`): lesson time starts stopped at 0 (for step-by-step
   * demonstrations); `"false"` or absent: time runs (a framework may write a false boolean as
   * `paused="false"`). */
  paused?: boolean | '' | 'true' | 'false';
  /** `light`, `dark` or `auto` (the reader's system setting); absent: the host page's `color-scheme`. */
  theme?: 'light' | 'dark' | 'auto';
}

/** `<bucket-lab>`: the live token-bucket diagram in a shadow root. */
export class BucketLabElement extends HTMLElement {
  static readonly observedAttributes: readonly string[];
  /**
   * The mounted diagram, or `null` while loading, when an attribute is invalid, and once it is
   * freed (by removing the element, or a script's `free()`: the element then mounts a new one when
   * an attribute changes or it is connected again).
   */
  readonly diagram: BucketDiagram | null;
  /**
   * Why the element shows an error box instead of the diagram (the module could not load, an
   * attribute is invalid, the page's policy refused something), or `null`: the error of the last
   * `bucketlab:error`, until the diagram mounts.
   */
  readonly error: BucketLabError | null;
  /** Each attribute as a property, reflected: a number or text writes the attribute, null or
   * undefined removes it; read back as the attribute's text, or null. (`lang` is HTMLElement's.) */
  get capacity(): string | null;
  set capacity(value: string | number | null | undefined);
  get refillRate(): string | null;
  set refillRate(value: string | number | null | undefined);
  get cost(): string | null;
  set cost(value: string | number | null | undefined);
  get tokens(): string | null;
  set tokens(value: string | number | null | undefined);
  get view(): string | null;
  set view(value: 'diagram' | null | undefined);
  get controls(): string | null;
  set controls(value: BucketLabAttributes['controls'] | null | undefined);
  get theme(): string | null;
  set theme(value: BucketLabAttributes['theme'] | null | undefined);
  /** Whether `paused` is set (present and not `"false"`); `true` writes it, `false` (or
   * `"false"`) removes it. */
  paused: boolean;
}

/** One invalid attribute: its name, why (English, for the console) and why in the element's language. */
export interface AttributeProblem {
  attribute: string;
  message: string;
  localized?: string;
}

/** The error an element shows; for invalid attributes, `errors` names each of them. */
export interface BucketLabError extends Error {
  errors?: readonly AttributeProblem[];
}

/** The attribute names the element reads. */
export const ATTRIBUTES: readonly (keyof BucketLabAttributes)[];
/** The views the element can show. */
export const VIEWS: readonly string[];
/** The groups `controls` can name. */
export const CONTROL_GROUPS: readonly ControlGroup[];
/** The diagram's events the element dispatches again from itself (see {@link BucketLabEventMap}). */
export const EVENTS: readonly ('bucketlab:decision' | 'bucketlab:config')[];

/** `detail` of `bucketlab:decision`: the last of the requests decided together. */
export interface DecisionDetail {
  allowed: boolean;
  /** 200 or 429. */
  status: 200 | 429;
  /** The response's status line and headers, as text. */
  head: string;
  /** The exact wait in seconds: 0 when allowed, `null` when no wait can be given (the request can
   * never pass, or the wait is too long for a number). */
  retryAfter: number | null;
  /** Tokens left. */
  tokens: number;
  cost: number;
  capacity: number;
  refillRate: number;
}

/** The element's events, all bubbling `CustomEvent`s. */
export interface BucketLabEventMap extends HTMLElementEventMap {
  /** The diagram is mounted: `element.diagram` can be used (again after a remount: `lang`, `view`, `tokens`). */
  'bucketlab:ready': CustomEvent<{ diagram: BucketDiagram }>;
  /** Requests were decided (a click, a burst, the traffic, a script's `send`). */
  'bucketlab:decision': CustomEvent<DecisionDetail>;
  /** `B` or `r` changed (the sliders, the attributes, a script). */
  'bucketlab:config': CustomEvent<{ capacity: number; refillRate: number }>;
  /** The element shows an error box instead of the diagram; `element.error` holds the same error. */
  'bucketlab:error': CustomEvent<{ error: BucketLabError }>;
}

declare global {
  interface HTMLElementTagNameMap {
    'bucket-lab': BucketLabElement;
  }
  interface HTMLElementEventMap {
    'bucketlab:ready': CustomEvent<{ diagram: BucketDiagram }>;
    'bucketlab:decision': CustomEvent<DecisionDetail>;
    'bucketlab:config': CustomEvent<{ capacity: number; refillRate: number }>;
    'bucketlab:error': CustomEvent<{ error: BucketLabError }>;
  }
  /** The events bubble: a listener on the document hears every element's. */
  interface DocumentEventMap {
    'bucketlab:ready': CustomEvent<{ diagram: BucketDiagram }>;
    'bucketlab:decision': CustomEvent<DecisionDetail>;
    'bucketlab:config': CustomEvent<{ capacity: number; refillRate: number }>;
    'bucketlab:error': CustomEvent<{ error: BucketLabError }>;
  }
}
