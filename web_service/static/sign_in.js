// Sign-in page: posts the password as JSON (no page reload), then goes where it was sent.
"use strict";

function say(text, isError) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.className = isError ? "error" : "";
}

function post(path, body) {
  return fetch(`/api/v3${path}`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  }).then((response) => response.json());
}

const form = document.getElementById("sign-in-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = document.getElementById("password");
    say("Signing in…", false);
    post("/auth/sign-in", {password: field.value})
      .then((answer) => {
        if (answer.status === "success") {
          window.location.assign(form.dataset.next || "/");
        } else {
          field.value = "";
          say(answer.message, true);
        }
      })
      .catch(() => say("The web service did not answer.", true));
  });
}

const signOut = document.getElementById("sign-out");
if (signOut) {
  signOut.addEventListener("click", () => {
    post("/auth/sign-out").then(() => window.location.assign("/sign-in"))
      .catch(() => say("The web service did not answer.", true));
  });
}

const expires = document.getElementById("expires");
if (expires) {
  expires.textContent = new Date(Number(expires.dataset.at) * 1000).toLocaleString();
}
