// The round page's "Round document as received": fetched when the panel is first opened, since
// for a big round the indented document is most of the page (300 players: 320 of 400 kB).
for (const panel of document.querySelectorAll("details[data-document-url]")) {
  panel.addEventListener("toggle", async () => {
    const pre = panel.querySelector("pre");
    if (!panel.open || pre.dataset.loaded) {
      return;
    }
    pre.dataset.loaded = "true";
    const response = await fetch(panel.dataset.documentUrl, { credentials: "same-origin" });
    pre.textContent = response.ok ? await response.text() : `The document could not be loaded (${response.status}).`;
  });
}
