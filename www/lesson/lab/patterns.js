// The lab's traffic patterns, each with the settings of its own (besides the limit, the window w,
// the duration and, for random traffic, the seed): what the form shows and what a link may hold.
export const PATTERN_FIELDS = {
  windowEdge: [],
  steady: ['rate'],
  burst: ['size', 'every'],
  poisson: ['rate'],
  ramp: ['from', 'to'],
  pasted: ['timestamps'],
};
