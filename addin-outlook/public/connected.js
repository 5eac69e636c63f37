/* global window, document, Office, URLSearchParams */
// The end of connecting Office 365 from the add-in: the server's callback sent the dialog here with
// ?o365=connected|error; the pane that opened the dialog (displayDialogAsync) gets the outcome
// through messageParent and closes the dialog.
(function () {
  var outcome = new URLSearchParams(window.location.search).get('o365') === 'connected' ? 'connected' : 'error';
  document.getElementById('outcome').textContent =
    outcome === 'connected'
      ? 'Office 365 connected. You can close this window.'
      : 'Office 365 could not be connected. Close this window and try again.';
  if (typeof Office === 'undefined' || !Office.onReady) return;
  Office.onReady(function () {
    try {
      Office.context.ui.messageParent(outcome);
    } catch {
      // Opened outside an Office dialog: the text above is all there is.
    }
  });
})();
