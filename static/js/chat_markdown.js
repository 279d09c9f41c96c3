// Markdown for the assistant's answers: marked turns the text into HTML, DOMPurify removes anything
// active from it (scripts, event handlers, javascript: links) before it touches the page. The answer
// is model output and may carry injected HTML, so nothing is ever inserted unsanitised. Images,
// frames, forms and inline styles are dropped as well: an answer must not make the browser fetch
// anything (an image URL can leak data) nor dress itself up as part of the page.
(function () {
  "use strict";
  const FORBID_TAGS = ["img", "picture", "source", "video", "audio", "iframe", "object", "embed", "form", "input",
    "button", "textarea", "select", "option", "style", "link", "meta", "base", "svg", "math"];
  const purifier = window.DOMPurify && window.DOMPurify.isSupported ? window.DOMPurify : null;
  const parser = window.marked && typeof window.marked.parse === "function" ? window.marked : null;

  if (purifier) {
    purifier.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A" && node.getAttribute("href")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
    });
  }

  /** Replace ``target``'s content with ``source`` rendered as sanitised Markdown (plain text as a fallback). */
  function renderMarkdown(target, source) {
    if (!parser || !purifier) { // a missing library must not open a hole: show the text as text
      target.classList.remove("md");
      target.textContent = source;
      return;
    }
    const html = parser.parse(source, { gfm: true, breaks: true, async: false });
    const fragment = purifier.sanitize(html, {
      USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR: ["style", "class", "id"], RETURN_DOM_FRAGMENT: true,
    });
    target.classList.add("md");
    target.replaceChildren(fragment);
  }

  window.ChatMarkdown = { render: renderMarkdown };
})();
