// The <bucket-lab> element's public URL, which course pages link to; importing it defines the element.
export * from './element/bucket-lab.js';
