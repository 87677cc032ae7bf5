// A console transcript as the lesson and README write it: lines typed after "> ", each followed by
// the result it prints, if any. Shared by the e2e test of the lesson's section 5 and the node test
// of README's block.

/** `{ input, expected }` per "> " line (its trailing `// …` comment dropped); `expected` is the line under it, if it shows a result. */
export function transcript(text) {
  const steps = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('> ')) steps.push({ input: line.slice(2).replace(/\s+\/\/.*$/, '').trim(), expected: null });
    else if (line.trim() && !line.startsWith('//')) steps.at(-1).expected = line;
  }
  return steps;
}
