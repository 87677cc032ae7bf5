// JSX types for <bucket-lab> in React 19 with TypeScript. Once in the app (a types-only import,
// which leaves nothing in the bundle):
//   import type {} from 'bucketlab/react';
// then `<bucket-lab capacity={10} refill-rate="2,5" paused onbucketlab:decision={(e) => …} />`
// type-checks. React 19 sets each of these as the element's attribute, and an `on` + event name
// prop as that event's listener.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BucketLabAttributes, BucketLabElement, BucketLabEventMap } from './element.js';

/** The element's own events, as React 19 listener props (`onbucketlab:decision`). */
export type BucketLabListeners = {
  [Name in 'bucketlab:ready' | 'bucketlab:decision' | 'bucketlab:config' | 'bucketlab:error' as `on${Name}`]?: (event: BucketLabEventMap[Name]) => void;
};

/** `<bucket-lab>`'s props: a React element's, its attributes and its events. */
export type BucketLabProps = DetailedHTMLProps<HTMLAttributes<BucketLabElement>, BucketLabElement>
  & Omit<BucketLabAttributes, 'paused'> & BucketLabListeners & {
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
