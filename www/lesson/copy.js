// Copy buttons: visible feedback on the button and a spoken one in a polite live region.
import { t } from './strings.js';

const SHOWN_MS = 2000;

/** Copies `text`; the clipboard API where allowed, else a selected textarea and execCommand. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }
}

/** What a copy button copies, and what to call it when announcing. */
function sourceOf(button) {
  if (button.dataset.copyFrom) {
    const field = document.getElementById(button.dataset.copyFrom);
    return { text: field.value, name: document.querySelector(`label[for="${field.id}"]`)?.textContent ?? '' };
  }
  if (button.dataset.copyText !== undefined) {
    return { text: button.dataset.copyText, name: button.dataset.copyName ?? button.textContent };
  }
  const block = button.closest('figure');
  return { text: block.querySelector('pre').textContent, name: block.querySelector('figcaption code')?.textContent ?? t('code_word') };
}

/** Makes a copy button work; `text()`, when given, is what it copies (then its `data-copy-name`
 * names it), and an empty text copies nothing. When `text()` throws, its error's `localized`
 * (else its message) is shown beside the button and announced, and nothing is copied. */
export function wireCopyButton(button, text) {
  const label = button.textContent;
  const feedback = button.parentElement.querySelector('.copy-feedback');
  const announcer = document.getElementById('copy-announcer');
  let timer = 0;
  button.addEventListener('click', async () => {
    let message;
    let failed = false;
    try {
      const source = text ? { text: text(), name: button.dataset.copyName ?? label } : sourceOf(button);
      if (!source.text) return;
      try {
        await copyText(source.text);
      } catch {
        throw new Error(t('copy_failed'));
      }
      // The button shows "Copied!" while its name stays: the live region says it once, in full.
      button.setAttribute('aria-label', label);
      button.textContent = button.dataset.copied;
      button.classList.add('is-copied');
      message = t('copy_announce', { what: source.name });
    } catch (error) {
      failed = true;
      message = error.localized ?? error.message;
    }
    if (feedback) feedback.textContent = failed ? message : '';
    announcer.textContent = message;
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.textContent = label;
      button.removeAttribute('aria-label');
      button.classList.remove('is-copied');
      // A failure stays beside the button until the next click: it asks the reader to act.
      if (feedback && !failed) feedback.textContent = '';
      announcer.textContent = '';
    }, SHOWN_MS);
  });
}

/** Shows and wires every code block's copy button. */
export function setUpCopyButtons() {
  for (const tools of document.querySelectorAll('.code-tools')) tools.hidden = false;
  document.querySelectorAll('button.copy').forEach((button, i) => {
    // Nine buttons say "Copy": each is described by its block's caption ("bucket.rs (Rust)").
    const caption = button.closest('figure')?.querySelector('figcaption');
    if (caption && !button.hasAttribute('aria-describedby')) {
      caption.id ||= `copy-caption-${i}`;
      button.setAttribute('aria-describedby', caption.id);
    }
    wireCopyButton(button);
  });
}
