// JSX types for <bucket-lab> in React 19 with TypeScript. Once in the app (a types-only import,
// which leaves nothing in the bundle):
//   import type {} from 'bucketlab/react';
// then `<bucket-lab ref={ref} capacity={10} refill-rate="2,5" paused />` type-checks, `ref` as the
// element. React 19 sets each of these as the element's property where it has one (which writes
// its attribute: element.d.ts), else as its attribute: the same setting. Its events are heard with
// `addEventListener` in an effect (typed by element.d.ts), not as `onbucketlab:…` props: a JSX
// name with a colon is refused by Next.js's compiler, and React attaches such a listener to a
// server-rendered element only at its next render (the package's README shows how).
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BucketLabAttributes, BucketLabElement } from './element.js';

/** `<bucket-lab>`'s props: a React element's and its attributes. */
export type BucketLabProps = DetailedHTMLProps<HTMLAttributes<BucketLabElement>, BucketLabElement>
  & Omit<BucketLabAttributes, 'paused'> & {
    /** `true` (or present with no value) stops time; React leaves the attribute out for `false`. */
    paused?: boolean;
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'bucket-lab': BucketLabProps;
    }
  }
}
