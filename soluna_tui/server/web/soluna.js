// The web door's own script: the terminal takes the keyboard as soon as the page opens (textual.js opens
// xterm.js unfocused, so keys typed before a click on it went nowhere).
window.addEventListener("load", () => {
  setTimeout(() => {
    const keyboard = document.querySelector(".xterm-helper-textarea");
    if (keyboard) {
      keyboard.focus({ preventScroll: true });
    }
  }, 0);
});
