// Reconnecting a socket without hammering the server during an outage (the bell, the chat page).
//
// Exponential backoff with jitter, capped, and reset only by a connection that stayed open a while:
// during a Redis outage the server accepts a socket and closes it at once, so resetting on "open" (as
// the bell once did) reconnected about once a second. The jitter (each wait between half and all of its
// step) keeps every tab of a restarted server from coming back in the same instant.
(function () {
  "use strict";

  /** Return a backoff: call opened() when a socket opens and nextDelay() when it closed. */
  function backoff({ baseMs = 1000, capMs = 30000, stableMs = 10000 } = {}) {
    let failures = 0; // closes in a row without a connection that stayed up
    let openedAt = 0;
    return {
      opened() { openedAt = Date.now(); },
      /** The wait in milliseconds before the next attempt. */
      nextDelay() {
        if (openedAt && Date.now() - openedAt >= stableMs) failures = 0;
        openedAt = 0;
        const step = Math.min(capMs, baseMs * 2 ** Math.min(failures, 20));
        failures += 1;
        return step / 2 + Math.random() * step / 2;
      },
    };
  }

  window.Reconnect = { backoff };
})();
