// The lab's entry point on the page: tiny, so the page stays light. The lab itself (its wasm
// module and widgets) loads only when the section comes near (www/lesson/lazy.js).
import { lazyPart } from '../lazy.js';
import { keptAnswers } from '../quiz-answers.js';
import { keptPart } from '../kept-parts.js';
import { shareableUrl } from '../permalink.js';
import { pageLang } from '../strings.js';

const mount = document.getElementById('algorithm-lab');

lazyPart({
  mount,
  styles: [new URL('./lab.css', import.meta.url).href, new URL('../quiz.css', import.meta.url).href],
  key: 'lab',
  loader: 'loadLab',
  load: () => import('./app.js')
    .then(({ mountLab }) => mountLab(mount, {
      answers: keptAnswers(),
      comparison: keptPart('comparison'),
      link: keptPart('labLink'),
      linkTo: (lab) => shareableUrl({ lang: pageLang(), lab }),
    }))
    .then((handle) => {
      performance.mark('bucketlab:lab-interactive');
      return handle;
    }),
});
