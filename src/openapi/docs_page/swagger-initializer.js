// pactum's docs page (feature `docs-page`, src/openapi/docs_page.rs): starts the vendored
// Swagger UI on the OpenAPI document the page names in `data-url`. It is a file of its own,
// not an inline script, so the page works under a Content-Security-Policy without
// 'unsafe-inline'; nothing is loaded from another host.
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-url"),
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    displayRequestDuration: true,
    // Swagger UI's default sends the document to validator.swagger.io for a badge.
    validatorUrl: null,
    // Configuration from the page's query string (`?url=`, `?configUrl=`) is ignored.
    queryConfigEnabled: false,
  });
})();
