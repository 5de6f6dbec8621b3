/**
 * The API reference page at /api/docs. It holds no data, so it is public: its own script (a file of
 * this origin, as the CSP's script-src 'self' wants) fetches /api/openapi.json with the web app's token
 * from localStorage and hands it to Swagger UI, or asks the person to sign in.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Guardian API reference</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <script src="/api/docs/swagger-ui-bundle.js" defer></script>
    <script src="/api/docs/docs.js" defer></script>
  </head>
  <body>
    <main id="reference"><p>Loading the API reference…</p></main>
  </body>
</html>
`;

/** The page's script: the key and the path are the web app's (apps/web/src/lib/auth-token.ts, /login). */
export const DOCS_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('reference');
  var token = localStorage.getItem('token');

  function askToSignIn(text) {
    var paragraph = document.createElement('p');
    var link = document.createElement('a');
    link.href = '/login';
    link.textContent = 'Sign in';
    paragraph.append(text + ' ', link, ' and come back to this page.');
    root.replaceChildren(paragraph);
  }

  function say(text) {
    var paragraph = document.createElement('p');
    paragraph.textContent = text;
    root.replaceChildren(paragraph);
  }

  if (!token) return askToSignIn('The API reference is for signed-in people.');
  fetch('/api/openapi.json', { headers: { Authorization: 'Bearer ' + token } })
    .then(function (response) {
      if (response.status === 401) return askToSignIn('Your session has ended.');
      if (!response.ok) return say('The API reference could not be loaded (HTTP ' + response.status + ').');
      return response.json().then(function (document) {
        root.replaceChildren();
        window.SwaggerUIBundle({
          spec: document,
          domNode: root,
          // "Try it out" calls the API as the signed-in person.
          requestInterceptor: function (request) {
            request.headers.Authorization = 'Bearer ' + token;
            return request;
          },
        });
      });
    })
    .catch(function () {
      say('The API reference could not be loaded: the server did not answer.');
    });
})();
`;
