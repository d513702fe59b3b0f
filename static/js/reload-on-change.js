// A select marked data-reload-query="<name>" reloads its page with ?<name>=<its value> when it
// changes, the server filling the page for that value: the table-limit form shows the chosen bet
// kind's current limit (limits.views.TableLimitSetView). Without this script the page's links do it.
for (const select of document.querySelectorAll("select[data-reload-query]")) {
  select.addEventListener("change", () => {
    const url = new URL(window.location.href);
    url.searchParams.set(select.dataset.reloadQuery, select.value);
    window.location.assign(url);
  });
}
