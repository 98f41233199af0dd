// The web door's own script: the terminal takes the keyboard as soon as the game is connected (textual.js opens
// xterm.js unfocused, so keys typed before a click on it went nowhere). Not before: a focused terminal tells the
// server so, and a websocket still connecting cannot send.
window.addEventListener("load", () => {
  const body = document.body;
  const takeKeyboard = () => {
    const keyboard = document.querySelector(".xterm-helper-textarea");
    if (keyboard) {
      keyboard.focus({ preventScroll: true });
    }
  };
  if (body.classList.contains("-loaded")) {
    takeKeyboard();
    return;
  }
  const watch = new MutationObserver(() => {
    if (body.classList.contains("-loaded")) {  // textual.js's mark of an open websocket
      watch.disconnect();
      takeKeyboard();
    }
  });
  watch.observe(body, { attributes: true, attributeFilter: ["class"] });
});
