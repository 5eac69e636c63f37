/* global window, setTimeout, BroadcastChannel */
// A scripted test double of the Office.js surface the Outlook pane uses, served in place of
// office.js by the end-to-end test (page.route). It follows Office.js's shapes: Office.onReady,
// context.mailbox (userProfile, item, addHandlerAsync / removeHandlerAsync), read items with plain
// fields, compose items with getAsync / setAsync, AsyncResult callbacks, context.roamingSettings.
// The test drives it through window.__fakeOutlook: select(item) fires ItemChanged like a pinned
// pane sees it; compose state (subject, body) can be read back. context.ui.displayDialogAsync opens
// the page in a real popup window; the page's Office.context.ui.messageParent reaches the pane's
// DialogMessageReceived handler over a BroadcastChannel (a dialog has no opener to talk to, as
// in Office, where the host carries the message).
(function () {
  var init = window.__fakeOutlookInit || {};
  var handlers = {};
  var settings = {};
  var ok = function (cb, value) {
    if (cb)
      setTimeout(function () {
        cb({ status: 'succeeded', value: value });
      }, 0);
  };
  var addr = function (p) {
    return { displayName: p.displayName || '', emailAddress: p.email, recipientType: 'other' };
  };

  function composeItem(spec) {
    var state = { subject: spec.subject || '', body: spec.body || '', to: spec.to || [], cc: spec.cc || [] };
    var recipients = function (key) {
      return {
        getAsync: function (opts, cb) {
          ok(typeof opts === 'function' ? opts : cb, state[key].map(addr));
        },
        setAsync: function (list, opts, cb) {
          state[key] = list.map(function (e) {
            return typeof e === 'string' ? { email: e } : { email: e.emailAddress, displayName: e.displayName };
          });
          ok(typeof opts === 'function' ? opts : cb);
        },
      };
    };
    return {
      state: state,
      item: {
        itemType: 'message',
        subject: {
          getAsync: function (opts, cb) {
            ok(typeof opts === 'function' ? opts : cb, state.subject);
          },
          setAsync: function (v, opts, cb) {
            state.subject = v;
            ok(typeof opts === 'function' ? opts : cb);
          },
        },
        to: recipients('to'),
        cc: recipients('cc'),
        body: {
          getAsync: function (type, opts, cb) {
            ok(typeof opts === 'function' ? opts : cb, state.body);
          },
          setAsync: function (v, opts, cb) {
            state.body = v;
            ok(typeof opts === 'function' ? opts : cb);
          },
          setSelectedDataAsync: function (v, opts, cb) {
            state.body += v;
            ok(typeof opts === 'function' ? opts : cb);
          },
        },
      },
    };
  }

  function readItem(spec) {
    return {
      itemType: 'message',
      itemId: spec.id || 'AAMk-' + Math.random().toString(36).slice(2),
      subject: spec.subject || '',
      from: spec.from ? addr(spec.from) : null,
      sender: spec.from ? addr(spec.from) : null,
      to: (spec.to || []).map(addr),
      cc: (spec.cc || []).map(addr),
      displayReplyForm: function (form) {
        window.__fakeOutlook.replyForm = form;
      },
    };
  }

  var current = null;
  var compose = null;
  function build(spec) {
    if (!spec) {
      compose = null;
      return null;
    }
    if (spec.mode === 'compose') {
      compose = composeItem(spec);
      return compose.item;
    }
    compose = null;
    return readItem(spec);
  }
  current = build(init.item);

  var mailbox = {
    userProfile: { emailAddress: init.userEmail || 'rep@example.com', displayName: 'Rep' },
    addHandlerAsync: function (type, handler, opts, cb) {
      handlers[type] = handler;
      ok(typeof opts === 'function' ? opts : cb);
    },
    removeHandlerAsync: function (type, opts, cb) {
      delete handlers[type];
      ok(typeof opts === 'function' ? opts : cb);
    },
    // EWS id → REST (Graph) id, as documented: '/' becomes '-', '+' becomes '_'.
    convertToRestId: function (id) {
      return String(id).replace(/\//g, '-').replace(/\+/g, '_');
    },
  };
  Object.defineProperty(mailbox, 'item', {
    get: function () {
      return current;
    },
    enumerable: true,
  });

  window.Office = {
    HostType: { Outlook: 'Outlook' },
    PlatformType: { OfficeOnline: 'OfficeOnline' },
    EventType: {
      ItemChanged: 'olkItemSelectedChanged',
      DialogMessageReceived: 'dialogMessageReceived',
      DialogEventReceived: 'dialogEventReceived',
    },
    CoercionType: { Html: 'html', Text: 'text' },
    AsyncResultStatus: { Succeeded: 'succeeded', Failed: 'failed' },
    context: {
      mailbox: mailbox,
      ui: {
        displayDialogAsync: function (url, opts, cb) {
          var dialogHandlers = {};
          var channel = new BroadcastChannel('fake-office-dialog');
          var win = window.open(url, '_blank', 'popup');
          channel.onmessage = function (e) {
            var h = dialogHandlers.dialogMessageReceived;
            if (h) h({ message: String(e.data), origin: window.location.origin });
          };
          window.__fakeOutlook.dialog = { url: url, options: opts, closed: false };
          ok(typeof opts === 'function' ? opts : cb, {
            addEventHandler: function (type, h) {
              dialogHandlers[type] = h;
            },
            close: function () {
              window.__fakeOutlook.dialog.closed = true;
              channel.close();
              if (win) win.close();
            },
          });
        },
        messageParent: function (message) {
          var channel = new BroadcastChannel('fake-office-dialog');
          channel.postMessage(String(message));
          channel.close();
        },
      },
      roamingSettings: {
        get: function (k) {
          return settings[k];
        },
        set: function (k, v) {
          settings[k] = v;
        },
        remove: function (k) {
          delete settings[k];
        },
        saveAsync: function (cb) {
          ok(cb);
        },
      },
    },
    onReady: function (cb) {
      var info = { host: 'Outlook', platform: 'OfficeOnline' };
      return new Promise(function (resolve) {
        setTimeout(function () {
          // When Office.js said it is ready (the pane bench times the pane from here).
          if (window.__officeReadyAt === undefined) window.__officeReadyAt = window.performance.now();
          if (cb) cb(info);
          resolve(info);
        }, 0);
      });
    },
  };

  window.__fakeOutlook = {
    /** Selects another item (or null) and fires ItemChanged, as a pinned pane sees it. */
    select: function (spec) {
      current = build(spec);
      var h = handlers.olkItemSelectedChanged;
      if (h) h({ type: 'olkItemSelectedChanged' });
    },
    compose: function () {
      return compose ? compose.state : null;
    },
    settings: settings,
    replyForm: null,
    dialog: null,
    handlerCount: function () {
      return Object.keys(handlers).length;
    },
  };
})();
