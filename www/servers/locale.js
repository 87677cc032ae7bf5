// The several-servers widget's words: one table per language, the same keys in each (a test checks
// it). `{name}` marks are filled in by `fill`.

const ptBR = {
  modeLegend: 'Onde fica o balde do cliente',
  modeLocal: 'Um balde em cada servidor (memória local)',
  modeShared: 'Um balde só, no armazenamento compartilhado (Redis)',
  burst: 'Enviar rajada de {n}',
  step: 'Avançar {s} s',
  reset: 'Recomeçar',
  clock: 'Tempo: {t} s',
  server: 'Servidor {name}',
  laneCount: '{a} de {n} admitidas',
  laneTokens: 'balde: {t} / {b}',
  store: 'Redis (compartilhado): {t} / {b} tokens',
  balancer: 'Balanceador de carga em rodízio → {servers} servidores',
  empty: 'Envie uma rajada: o balanceador reparte as requisições do mesmo cliente entre os servidores.',
  result: '{a} de {n} requisições admitidas',
  limitLocal: 'Cada servidor tem o próprio balde, então o cliente ganha {servers} × B = {max} numa rajada e {servers} × r de taxa.',
  limitShared: 'O balde é um só para o cliente, onde quer que a requisição caia: B = {b} numa rajada, r de taxa.',
  other: 'As mesmas requisições com {mode}: {a} admitidas.',
  otherLocal: 'baldes locais',
  otherShared: 'o balde compartilhado',
  announce: '{mode}: {a} de {n} admitidas.',
  legendOk: 'admitida (200)',
  legendDeny: 'negada (429)',
  svgTitle: 'Requisições por servidor',
  svgDesc: 'Cada coluna é uma requisição, na ordem de chegada, na faixa do servidor que a recebeu. Círculo: admitida; losango: negada.',
  burstAt: 't = {t} s',
  error: 'Não foi possível montar a simulação: {message}',
};

const en = {
  modeLegend: "Where the client's bucket lives",
  modeLocal: 'One bucket in each server (local memory)',
  modeShared: 'One bucket, in the shared store (Redis)',
  burst: 'Send a burst of {n}',
  step: 'Advance {s} s',
  reset: 'Start over',
  clock: 'Time: {t} s',
  server: 'Server {name}',
  laneCount: '{a} of {n} admitted',
  laneTokens: 'bucket: {t} / {b}',
  store: 'Redis (shared): {t} / {b} tokens',
  balancer: 'Round-robin load balancer → {servers} servers',
  empty: "Send a burst: the load balancer spreads one client's requests over the servers.",
  result: '{a} of {n} requests admitted',
  limitLocal: 'Each server has its own bucket, so the client gets {servers} × B = {max} in a burst, and {servers} × r as its rate.',
  limitShared: 'There is one bucket per client, wherever the request lands: B = {b} in a burst, r as its rate.',
  other: 'The same requests with {mode}: {a} admitted.',
  otherLocal: 'local buckets',
  otherShared: 'the shared bucket',
  announce: '{mode}: {a} of {n} admitted.',
  legendOk: 'admitted (200)',
  legendDeny: 'denied (429)',
  svgTitle: 'Requests per server',
  svgDesc: "Each column is a request, in order of arrival, in the lane of the server that got it. Circle: admitted; diamond: denied.",
  burstAt: 't = {t} s',
  error: 'The simulation could not be set up: {message}',
};

export const LOCALES = { 'pt-BR': ptBR, en };

/** The table for a page language: English for `en…`, Brazilian Portuguese otherwise. */
export function localeFor(lang) {
  return String(lang).toLowerCase().startsWith('en') ? LOCALES.en : LOCALES['pt-BR'];
}

/** `text` with each `{name}` replaced by `values[name]`. */
export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (mark, name) => (name in values ? String(values[name]) : mark));
}
