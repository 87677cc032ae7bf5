// A Learning Record Store stand-in for the tests: a real HTTP server on loopback that takes
// POST …/xAPI/statements the way an LRS does (xAPI 1.0.3 header, Basic credentials, CORS for a
// page on another origin), validates every statement with @learninglocker/xapi-validation (the
// validator Learning Locker itself uses), stores the valid ones and refuses a batch with any invalid
// one (400). It can be told to fail the next requests (an error status, or no answer at all).
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
 * { endpoint, statements, refused, requests, failNext(count, status), hangNext(count), close() }.
 */
export async function startLrs({ auth = 'Basic dGVzdDp0ZXN0' } = {}) {
  const lrs = { statements: [], refused: [], requests: 0, fail: [] };
  const hanging = new Set();
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
      if (trouble) return answer(trouble, { error: 'told to fail' });
      if (req.headers.authorization !== auth) return answer(401, { error: 'bad credentials' });
      if (req.headers['x-experience-api-version'] !== '1.0.3') return answer(400, { error: 'X-Experience-API-Version missing' });
      let batch;
      try {
        batch = [JSON.parse(text)].flat();
      } catch {
        return answer(400, { error: 'not JSON' });
      }
      const problems = batch.flatMap((s) => statementProblems(s));
      if (problems.length) {
        lrs.refused.push(...problems);
        return answer(400, { error: problems });
      }
      lrs.statements.push(...batch);
      return answer(200, batch.map((s) => s.id));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  lrs.endpoint = `http://127.0.0.1:${server.address().port}/xAPI/`;
  lrs.failNext = (count, status) => { lrs.fail.push(...Array(count).fill(status)); };
  lrs.hangNext = (count) => lrs.failNext(count, 'hang');
  lrs.close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return lrs;
}
