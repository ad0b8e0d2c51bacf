// The agent-workspace side of the ZAF protocol, served as is to the sandbox's host page.
// get / set / client.request go to the sandbox server (which holds the agent token and the secure
// settings); invoke and events are handled here, in the page that owns the app's iframe.
(function () {
  'use strict';

  var configElement = document.getElementById('zaf-host-config');
  var frame = document.getElementById('zaf-app-frame');
  if (!configElement || !frame) return;
  var config = JSON.parse(configElement.textContent);

  var subscriberCounts = {};
  var registered = false;
  var activatedSent = false;
  // Whether the ticket tab is the one shown (Home hides it): app.activated / app.deactivated.
  var active = true;
  // The app's answer to the ticket.save hook, while a save waits for it.
  var pendingSaveHook = null;
  // Zendesk gives a save hook a limited time before it cancels the save (unconfirmed figure).
  var SAVE_HOOK_TIMEOUT_MS = 15000;

  function post(message) {
    if (!frame.contentWindow) return;
    message.instanceGuid = config.appGuid;
    frame.contentWindow.postMessage(JSON.stringify(message), config.appOrigin);
  }

  function deliver(name, payload) {
    post({ key: 'zaf.' + name, message: payload });
  }

  function deliverIfSubscribed(name, payload) {
    if (registered && subscriberCounts[name] > 0) deliver(name, payload);
  }

  function callServer(path, body) {
    return fetch(config.endpoint + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok)
          throw new Error(
            (json && json.error && json.error.message) || 'host server answered ' + res.status,
          );
        return json;
      });
    });
  }

  function cssSize(value) {
    if (typeof value === 'number' && isFinite(value) && value >= 0) return value + 'px';
    if (typeof value === 'string' && /^\d+(\.\d+)?(px|%)?$/.test(value))
      return /\d$/.test(value) ? value + 'px' : value;
    return null;
  }

  function invoke(params) {
    var result = { errors: {} };
    Object.keys(params || {}).forEach(function (name) {
      var args = params[name] || [];
      if (name === 'resize') {
        var size = args[0] || {};
        var height = size.height === undefined ? null : cssSize(size.height);
        var width = size.width === undefined ? null : cssSize(size.width);
        if ((size.height !== undefined && !height) || (size.width !== undefined && !width)) {
          result.errors.resize = { name: 'Error', message: 'resize expects {width, height} in px' };
          return;
        }
        if (height) frame.style.height = height;
        if (width) frame.style.width = width;
        frame.setAttribute('data-resized', 'true');
        result.resize = null;
      } else if (name === 'routeTo') {
        // routeTo('ticket', id) opens that ticket in the workspace, as the same agent
        var id = Number(args[1]);
        if (args[0] !== 'ticket' || !Number.isSafeInteger(id) || id <= 0) {
          result.errors.routeTo = {
            name: 'Error',
            message: 'routeTo: only ("ticket", <ticket id>) is imitated',
          };
          return;
        }
        result.routeTo = null;
        // after the answer is posted: the app sees its promise settle, then the page changes
        setTimeout(function () {
          window.location.assign(config.ticketHref.replace('{id}', String(id)));
        }, 0);
      }
      // Any other action (track, __track__, unsupported ones) is answered empty, as the brief's host does.
    });
    return result;
  }

  function answerRpc(message) {
    var pending;
    if (message.request === 'invoke') {
      pending = Promise.resolve({ result: invoke(message.params) });
    } else if (message.request === 'get' || message.request === 'set') {
      pending = callServer('/rpc', { request: message.request, params: message.params });
    } else {
      pending = Promise.resolve({ result: { errors: {} } });
    }
    pending
      .then(function (reply) {
        post(
          reply.error
            ? { id: message.id, error: reply.error }
            : { id: message.id, result: reply.result },
        );
      })
      .catch(function (err) {
        post({ id: message.id, error: { name: 'HostError', message: String(err && err.message) } });
      });
  }

  function answerRequest(key, options) {
    callServer('/request', { options: options })
      .then(function (reply) {
        deliver(key + '.' + reply.outcome, { responseArgs: reply.responseArgs });
      })
      .catch(function (err) {
        deliver(key + '.fail', {
          responseArgs: [
            { status: 0, statusText: 'error', responseText: String(err && err.message) },
          ],
        });
      });
  }

  function handleKey(message) {
    var key = message.key;
    if (key === 'iframe.handshake') {
      registered = true;
      deliver('app.registered', { metadata: config.metadata, context: config.context });
      return;
    }
    if (key === 'iframe.reply:ticket.save') {
      if (pendingSaveHook)
        pendingSaveHook(message.error ? message.error.msg || 'Save cancelled' : null);
      return;
    }
    if (key.indexOf('iframe.on:') === 0) {
      var name = key.slice('iframe.on:'.length);
      subscriberCounts[name] = (message.message && message.message.subscriberCount) || 1;
      if (name === 'app.activated' && !activatedSent) {
        activatedSent = true;
        deliver('app.activated', { firstLoad: true });
      }
      return;
    }
    if (key.indexOf('iframe.off:') === 0) {
      subscriberCounts[key.slice('iframe.off:'.length)] =
        (message.message && message.message.subscriberCount) || 0;
      return;
    }
    if (/^request:\d+$/.test(key)) {
      answerRequest(key, message.message);
    }
    // session.live, __track__, iframe.trigger:* and app messages need no answer here.
  }

  window.addEventListener('message', function (event) {
    // Only the app's own iframe may talk to the host.
    if (event.source !== frame.contentWindow || event.origin !== config.appOrigin) return;
    var message = event.data;
    if (typeof message === 'string') {
      try {
        message = JSON.parse(message);
      } catch (_err) {
        return;
      }
    }
    if (!message || typeof message !== 'object') return;
    if (message.appGuid !== undefined && message.appGuid !== config.appGuid) return;
    if (message.id !== undefined && typeof message.request === 'string') answerRpc(message);
    else if (typeof message.key === 'string') handleKey(message);
  });

  // The app's first request goes out once the listener is up (a cached app answers fast): the
  // signed form POST for signedUrls, else the iframe's src.
  var signedForm = document.getElementById('zaf-signed-form');
  if (signedForm) signedForm.submit();
  else if (frame.getAttribute('data-src')) frame.src = frame.getAttribute('data-src');

  // ---- Saving the ticket in place, as Zendesk does: the app stays loaded and hears the save.

  /** The ticket.save hook: null to go on, else the reason the app cancelled the save. */
  function runSaveHook() {
    if (!registered || !(subscriberCounts['ticket.save'] > 0)) return Promise.resolve(null);
    return new Promise(function (resolve) {
      var timer = setTimeout(function () {
        finish('The app did not answer the save hook in time');
      }, SAVE_HOOK_TIMEOUT_MS);
      function finish(reason) {
        clearTimeout(timer);
        pendingSaveHook = null;
        resolve(reason);
      }
      pendingSaveHook = finish;
      post({ key: 'zaf.ticket.save', needsReply: true });
    });
  }

  function showSaveError(text) {
    var box = document.getElementById('ticket-save-error');
    if (!box) return;
    box.textContent = text || '';
    box.hidden = !text;
  }

  var saving = false;
  function saveInPlace(form) {
    if (saving) return;
    saving = true;
    showSaveError('');
    document.body.setAttribute('data-save', 'saving');
    var body = new FormData(form);
    runSaveHook()
      .then(function (cancelled) {
        if (cancelled) throw { hook: true, message: String(cancelled) };
        deliverIfSubscribed('ticket.submit.start', undefined);
        return fetch(form.getAttribute('action'), {
          method: 'POST',
          headers: { 'x-workspace-save': 'in-place' },
          body: body,
        }).then(function (res) {
          return res.json().then(function (json) {
            if (!res.ok || !json || typeof json.formHtml !== 'string')
              throw {
                message:
                  (json && json.error && json.error.message) ||
                  'The ticket was not saved (' + res.status + ')',
              };
            return json;
          });
        });
      })
      .then(function (json) {
        // Server-rendered and escaped like the initial page; the fields now carry the saved values.
        form.outerHTML = json.formHtml;
        deliverIfSubscribed('ticket.submit.done', undefined);
        deliverIfSubscribed('ticket.submit.always', undefined);
        document.body.setAttribute('data-save', 'saved');
      })
      .catch(function (err) {
        var message = String((err && err.message) || err);
        showSaveError(message);
        if (!(err && err.hook)) {
          deliverIfSubscribed('ticket.submit.fail', undefined);
          deliverIfSubscribed('ticket.submit.always', undefined);
        }
        document.body.setAttribute('data-save', 'failed');
      })
      .then(function () {
        saving = false;
      });
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || form.id !== 'ticket-form') return;
    event.preventDefault();
    saveInPlace(form);
  });

  // ---- Leaving the ticket tab for Home and coming back: the app is deactivated, then activated.

  function showTicketTab(show) {
    if (show === active) return;
    active = show;
    var body = document.getElementById('workspace-body');
    var home = document.getElementById('home-pane');
    var tab = document.getElementById('ticket-tab');
    if (body) body.hidden = !show;
    if (home) home.hidden = show;
    if (tab) tab.setAttribute('aria-pressed', show ? 'true' : 'false');
    document.body.setAttribute('data-view', show ? 'ticket' : 'home');
    if (show) deliverIfSubscribed('app.activated', { firstLoad: false });
    else deliverIfSubscribed('app.deactivated', undefined);
  }
  var homeButton = document.getElementById('workspace-home');
  var ticketTab = document.getElementById('ticket-tab');
  if (homeButton)
    homeButton.addEventListener('click', function () {
      showTicketTab(false);
    });
  if (ticketTab)
    ticketTab.addEventListener('click', function () {
      showTicketTab(true);
    });
  document.body.setAttribute('data-view', 'ticket');

  var events = new EventSource(config.endpoint + '/events');
  events.addEventListener('ticket', function (event) {
    var update = JSON.parse(event.data);
    var panel = document.getElementById('ticket-panel');
    // Server-rendered and escaped like the initial page.
    if (panel && typeof update.ticketHtml === 'string') panel.innerHTML = update.ticketHtml;
    (update.events || []).forEach(function (e) {
      deliverIfSubscribed(e.name, e.payload);
    });
    document.body.setAttribute('data-ticket-version', String(update.version));
  });
})();
