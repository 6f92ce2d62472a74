// The API reference page: the vendored Swagger UI draws the served OpenAPI description.
// Read-only (no "Try it out"): a reference page is not a second way to change the panel.
// No validator badge either: it would ask a host outside the panel.
const target = document.getElementById("api-reference");

function draw() {
  if (typeof window.SwaggerUIBundle !== "function") {
    target.textContent = "The API reference viewer did not load.";
    return;
  }
  window.SwaggerUIBundle({
    url: target.dataset.description,
    domNode: target,
    deepLinking: true,
    validatorUrl: null,
    supportedSubmitMethods: [],
    defaultModelsExpandDepth: 0,
  });
}

draw();
