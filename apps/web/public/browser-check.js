// This file stays ES5 so that the browsers it warns can read it: no template literals, optional chaining or optional catch bindings.
// biome-ignore-all lint/style/useTemplate: ES5
// biome-ignore-all lint/complexity/useArrowFunction: ES5
// biome-ignore-all lint/complexity/useOptionalChain: ES5
// biome-ignore-all lint/correctness/noUnusedVariables: ES5 needs the catch binding
/*
 * Unsupported-browser notice (spec 02 §2; issue 24). A classic ES5 script that index.html runs before the
 * console's module: it checks, by feature and not by name, what the console needs, and only when something is
 * missing replaces the console's root with a notice recommending Edge, Chrome, Firefox, Safari and Opera.
 * On a browser that has everything it changes nothing, so nothing flashes. A file and not an inline script:
 * the Content-Security-Policy allows scripts from this site only. Unit test: browser-check.test.ts.
 */
(function (win, doc) {
  /** The names of what this browser lacks of what the console uses; empty on a supported browser. */
  function missingFeatures(w) {
    var missing = [];
    function need(name, present) {
      var ok = false;
      try {
        ok = !!present();
      } catch (e) {
        ok = false;
      }
      if (!ok) missing.push(name);
    }
    // The console is an ES module using ES2022 methods as written (the build does not rewrite them).
    need('modules', function () {
      return w.HTMLScriptElement && 'noModule' in w.HTMLScriptElement.prototype;
    });
    need('promise', function () {
      return w.Promise && typeof w.Promise.allSettled === 'function';
    });
    need('fetch', function () {
      return typeof w.fetch === 'function' && typeof w.AbortController === 'function';
    });
    need('array.at', function () {
      return typeof w.Array.prototype.at === 'function';
    });
    need('array.findLast', function () {
      return typeof w.Array.prototype.findLast === 'function';
    });
    need('object.hasOwn', function () {
      return typeof w.Object.hasOwn === 'function';
    });
    // Dates in each plant's time zone and numbers in the user's language. Intl.supportedValuesOf (ES2022) comes
    // only with Intl's full time-zone data; creating a formatter in a zone here would load that data before the
    // console's first paint (~100 ms of a cold load's main thread), so the check asks for the method instead.
    need('intl', function () {
      var intl = w.Intl;
      var format = intl && intl.DateTimeFormat;
      return format && typeof format.prototype.formatToParts === 'function' && typeof intl.supportedValuesOf === 'function';
    });
    // Live notifications are read from a streamed response; charts and tables follow their box's size.
    need('streams', function () {
      return typeof w.TextDecoderStream === 'function';
    });
    need('resizeObserver', function () {
      return typeof w.ResizeObserver === 'function';
    });
    return missing;
  }

  var TEXTS = {
    en: ['Your browser cannot run this console', 'Please open it in a current version of one of these browsers:'],
    cn: ['您的浏览器无法运行此控制台', '请使用以下浏览器之一的最新版本打开：'],
    vi: ['Trình duyệt của bạn không thể chạy bảng điều khiển này', 'Vui lòng mở bằng phiên bản mới của một trong các trình duyệt sau:'],
    es: ['Su navegador no puede ejecutar esta consola', 'Ábrala con una versión actual de uno de estos navegadores:'],
    de: ['Ihr Browser kann diese Konsole nicht ausführen', 'Bitte öffnen Sie sie in einer aktuellen Version eines dieser Browser:'],
    cz: ['Váš prohlížeč tuto konzoli nedokáže spustit', 'Otevřete ji prosím v aktuální verzi některého z těchto prohlížečů:'],
    po: ['Twoja przeglądarka nie może uruchomić tej konsoli', 'Otwórz ją w aktualnej wersji jednej z tych przeglądarek:'],
    tr: ['Tarayıcınız bu konsolu çalıştıramıyor', 'Lütfen şu tarayıcılardan birinin güncel sürümünde açın:'],
    el: [
      'Το πρόγραμμα περιήγησής σας δεν μπορεί να εκτελέσει αυτή την κονσόλα',
      'Ανοίξτε την σε μια τρέχουσα έκδοση ενός από αυτά τα προγράμματα περιήγησης:',
    ],
    pt: ['O seu navegador não consegue executar esta consola', 'Abra-a numa versão atual de um destes navegadores:'],
  };
  var TAGS = { en: 'en', cn: 'zh-CN', vi: 'vi', es: 'es', de: 'de', cz: 'cs', po: 'pl', tr: 'tr', el: 'el', pt: 'pt' };
  var ALIASES = { zh: 'cn', cs: 'cz', pl: 'po' };
  var BROWSERS = [
    ['Microsoft Edge', 'https://www.microsoft.com/edge'],
    ['Google Chrome', 'https://www.google.com/chrome/'],
    ['Mozilla Firefox', 'https://www.mozilla.org/firefox/'],
    ['Apple Safari', 'https://www.apple.com/safari/'],
    ['Opera', 'https://www.opera.com/'],
  ];

  /** The console's stored language, else the browser's first one the console speaks, else English. */
  function language(w) {
    var wanted = [];
    var code;
    var i;
    try {
      wanted.push(w.localStorage.getItem('lang'));
    } catch (e) {
      // Storage may be off; the browser's languages remain.
    }
    var nav = w.navigator || {};
    wanted = wanted.concat(nav.languages || [nav.language]);
    for (i = 0; i < wanted.length; i++) {
      code = String(wanted[i] || '')
        .toLowerCase()
        .split(/[-_]/)[0];
      code = ALIASES[code] || code;
      if (TEXTS[code]) return code;
    }
    return 'en';
  }

  function noticeHtml(lang) {
    var text = TEXTS[lang];
    var items = '';
    var i;
    for (i = 0; i < BROWSERS.length; i++) items += '<li><a href="' + BROWSERS[i][1] + '" rel="noopener">' + BROWSERS[i][0] + '</a></li>';
    return '<h1>' + text[0] + '</h1><p>' + text[1] + '</p><ul>' + items + '</ul>';
  }

  win.sunwardBrowserCheck = { missingFeatures: missingFeatures, language: language, noticeHtml: noticeHtml };

  if (missingFeatures(win).length === 0) return;
  var root = doc.getElementById('root');
  var lang = language(win);
  var notice = doc.createElement('main');
  notice.id = 'unsupported-browser';
  notice.setAttribute('lang', TAGS[lang]);
  notice.setAttribute('style', 'font-family:sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222;line-height:1.5');
  notice.innerHTML = noticeHtml(lang);
  // The console's module finds no root and stays out of the way.
  if (root && root.parentNode) root.parentNode.replaceChild(notice, root);
  else doc.body.appendChild(notice);
})(window, document);
