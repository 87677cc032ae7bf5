// A Learning Record Store stand-in for the tests: a real HTTP server on loopback that takes
// POST …/xAPI/statements the way an LRS does (xAPI 1.0.3 header, Basic credentials, CORS for a
// page on another origin), validates every statement with @learninglocker/xapi-validation (the
// validator Learning Locker itself uses), stores the valid ones and refuses a batch with any invalid
// one (400), and a batch holding an id it already has (409, xAPI 1.0.3's conflict: nothing of that
// batch is stored). It can be told to fail the next requests (an error status, or no answer at
// all), or to hold their answers (each stored, its answer sent only when the test says: a slow LRS).
import { createServer } from 'node:http';
import xapiValidation from '@learninglocker/xapi-validation';

const validate = xapiValidation.default ?? xapiValidation;

/** The validator's complaints about `statement`, as "path: message" lines (empty when valid). */
export function statementProblems(statement) {
  return validate(statement).map((w) => `${w.path.join('.')}: ${w.message} (${JSON.stringify(w.data)?.slice(0, 80)})`);
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Experience-API-Version',
};

/**
 * Starts the stand-in; `auth` is the Authorization value it accepts. Resolves to
 * { endpoint, statements, refused, requests, failNext(count, status), hangNext(count), holdNext(count),
 * held, release(), close() }: `held` counts the answers held, `release()` sends them.
 */
export async function startLrs({ auth = 'Basic dGVzdDp0ZXN0' } = {}) {
  const lrs = { statements: [], refused: [], requests: 0, fail: [] };
  const hanging = new Set();
  const holding = [];
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    const answer = (status, body) => {
      res.writeHead(status, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let text = '';
    req.on('data', (chunk) => { text += chunk; });
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/xAPI/statements')) return answer(404, { error: `no route ${req.method} ${req.url}` });
      lrs.requests += 1;
      const trouble = lrs.fail.shift();
      if (trouble === 'hang') return void hanging.add(res);
      if (trouble && trouble !== 'hold') return answer(trouble, { error: 'told to fail' });
      if (req.headers.authorization !== auth) return answer(401, { error: 'bad credentials' });
      if (req.headers['x-experience-api-version'] !== '1.0.3') return answer(400, { error: 'X-Experience-API-Version missing' });
      let batch;
      try {
        batch = [JSON.parse(text)].flat();
      } catch {
        return answer(400, { error: 'not JSON' });
      }
      // Held: handled now, answered when the test releases it.
      const reply = trouble === 'hold' ? (status, body) => holding.push(() => answer(status, body)) : answer;
      const problems = batch.flatMap((s) => statementProblems(s));
      if (problems.length) {
        lrs.refused.push(...problems);
        return reply(400, { error: problems });
      }
      const known = batch.filter((s) => lrs.statements.some((t) => t.id === s.id));
      if (known.length) return reply(409, { error: `already stored: ${known.map((s) => s.id).join(', ')}` });
      lrs.statements.push(...batch);
      return reply(200, batch.map((s) => s.id));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  lrs.endpoint = `http://127.0.0.1:${server.address().port}/xAPI/`;
  lrs.failNext = (count, status) => { lrs.fail.push(...Array(count).fill(status)); };
  lrs.hangNext = (count) => lrs.failNext(count, 'hang');
  lrs.holdNext = (count) => lrs.failNext(count, 'hold');
  Object.defineProperty(lrs, 'held', { get: () => holding.length });
  lrs.release = () => { for (const send of holding.splice(0)) send(); };
  lrs.close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return lrs;
}
