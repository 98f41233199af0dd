// The web door's own script, beside textual.js (xterm.js speaking textual-serve's messages), which makes the
// terminal and hands it over (page.py: TERMINAL_HANDED_OVER). This script
// - starts textual.js once the page's fonts are in, so the first screen is drawn in them;
// - picks the font size that suits the device: the preferred size (a desktop's) if the terminal then has at least
//   LEAST_COLUMNS by LEAST_ROWS, else the largest that gives that (a phone's narrow screen), and fits the terminal
//   to the part of the page in view, again on every resize, rotation and zoom (the game gets the new size);
// - sends the keys of the row of keys (what a phone's keyboard lacks) as the keyboard's keys send them;
// - turns a finger dragged up or down the terminal into the mouse wheel's steps (xterm.js reads no touch moves), so
//   a swipe scrolls the help, the moves and a long dialog on a phone;
// - gives the terminal the keyboard as soon as the game is connected (textual.js opens xterm.js unfocused, so keys
//   typed before a click on it went nowhere; not before: a focused terminal tells the server so, and a websocket
//   still connecting cannot send);
// - once the session has ended, shows a page with its last line and the way back instead of the terminal;
// - keeps the screen-reader choice (the game in lines) in the browser: the name page's box ticked as it was left, a
//   play page opened without the choice asked again in lines if the browser keeps it (an address's
//   ?screen-reader=1 or =0 is kept as the choice; any other value is none, and the page is on the full screen);
//   and, on the page in lines, turns on xterm.js's screen-reader mode, whose rows and live region carry the lines to
//   the page's accessibility tree.
"use strict";

const PREFERRED_FONT_SIZE = 16;
const SMALLEST_FONT_SIZE = 6;
const FONT_SIZE_STEP = 0.5;
// The smallest terminal the game lays itself out in.
const LEAST_COLUMNS = 40;
const LEAST_ROWS = 20;
// Roboto Mono's letters, then the symbols it lacks (SolunaSymbols.ttf, shipped with the page), then textual.js's own.
const FONT_FAMILY = "'Roboto Mono', 'Soluna Symbols', Monaco, 'Courier New', monospace";
// How long the page waits for its fonts before starting without them.
const FONT_WAIT_MS = 3000;
// The bytes of the row's keys, as a keyboard sends them (the arrows depend on the terminal's cursor key mode).
const KEY_BYTES = { escape: "\x1b", tab: "\t", enter: "\r", "?": "?", u: "u" };
const ARROW_LETTERS = { up: "A", down: "B", right: "C", left: "D" };
// Lines a wheel's step scrolls in the game (Textual's App.scroll_sensitivity_y): a swipe gives a step each time the
// finger has gone that many lines, so what is under it keeps up with it.
const LINES_A_WHEEL_STEP = 2;
// The screen-reader choice: the page's address and forms name it so (page.py: SCREEN_READER_PARAMETER), the browser
// keeps it under KEPT_CHOICE, and "1" turns it on.
const SCREEN_READER_PARAMETER = "screen-reader";
const KEPT_CHOICE = "soluna-screen-reader";
const ON = "1";

// textual.js's terminal object (its xterm.js Terminal is .terminal), once handed over.
let textualTerminal = null;

document.addEventListener("textual-terminal", (event) => {
  textualTerminal = event.detail;
  textualTerminal.terminal.options.fontFamily = FONT_FAMILY;
  if (textualTerminal.element.dataset.screenReader === ON) {
    textualTerminal.terminal.options.screenReaderMode = true;  // its rows and live region, for a screen reader
  }
  fitTerminal();  // before textual.js measures the terminal for its websocket's first size
});

// The part of the page in view (less a pinch-zoom's margins, less a phone's keyboard): the page's box.
function fillVisibleArea() {
  const view = window.visualViewport;
  const body = document.body.style;
  if (!view) {
    return;
  }
  body.left = `${view.offsetLeft}px`;
  body.top = `${view.offsetTop}px`;
  body.width = `${view.width}px`;
  body.height = `${view.height}px`;
}

// The largest font size, up to the preferred one, at which the terminal has room for LEAST_COLUMNS by
// LEAST_ROWS (or, where the height does not allow that, LEAST_COLUMNS), and the terminal fitted at it.
function fitTerminal() {
  fillVisibleArea();
  if (textualTerminal === null) {
    return;
  }
  const { terminal, fitAddon, element } = textualTerminal;
  let widest = null;
  let chosen = null;
  for (let size = PREFERRED_FONT_SIZE; size >= SMALLEST_FONT_SIZE; size -= FONT_SIZE_STEP) {
    terminal.options.fontSize = size;
    const room = fitAddon.proposeDimensions();
    if (!room) {
      return;  // not laid out (the session has ended): nothing to fit
    }
    if (room.cols >= LEAST_COLUMNS && widest === null) {
      widest = size;
    }
    if (room.cols >= LEAST_COLUMNS && room.rows >= LEAST_ROWS) {
      chosen = size;
      break;
    }
  }
  terminal.options.fontSize = chosen ?? widest ?? SMALLEST_FONT_SIZE;
  element.dataset.fontSize = String(terminal.options.fontSize);
  textualTerminal.fit();
}

// One fitting a frame, however many resize events the frame had.
let fitting = false;
function fitSoon() {
  if (!fitting) {
    fitting = true;
    requestAnimationFrame(() => {
      fitting = false;
      fitTerminal();
    });
  }
}

function sendKey(name) {
  if (textualTerminal === null) {
    return;
  }
  const terminal = textualTerminal.terminal;
  const arrow = ARROW_LETTERS[name];
  const bytes = arrow ? `\x1b${terminal.modes.applicationCursorKeysMode ? "O" : "["}${arrow}` : KEY_BYTES[name];
  terminal.input(bytes, true);  // as if typed: xterm.js sends it as the game's stdin
}

function takeKeyboard() {
  const keyboard = document.querySelector(".xterm-helper-textarea");
  if (keyboard) {
    keyboard.focus({ preventScroll: true });
  }
}

// The terminal's last line of text, once the game has left its full screen (a farewell, the way back to a match,
// a refusal); "" if it never did (the connection was cut).
function lastLine() {
  const buffer = textualTerminal.terminal.buffer.active;
  if (buffer.type !== "normal") {
    return "";
  }
  let row = buffer.length - 1;
  while (row >= 0 && !buffer.getLine(row)?.translateToString(true).trim()) {
    row--;
  }
  let text = "";
  for (; row >= 0; row--) {  // a line longer than the terminal is wide goes on in the rows below it
    const part = buffer.getLine(row);
    text = part.translateToString(true) + text;
    if (!part.isWrapped) {
      break;
    }
  }
  return text.trim();
}

function showEnd() {
  const said = document.querySelector(".last-line");
  said.textContent = textualTerminal === null ? "" : lastLine();
  said.hidden = !said.textContent;
  document.body.classList.add("-ended");
  document.querySelector(".ended button")?.focus({ preventScroll: true });
}

// textual.js marks the page: -loaded once the websocket is open, -closed once it is closed.
function watchConnection() {
  const body = document.body;
  let connected = false;
  const look = () => {
    if (!connected && body.classList.contains("-loaded")) {
      connected = true;
      takeKeyboard();
    }
    if (body.classList.contains("-closed")) {
      watch.disconnect();
      if (textualTerminal === null) {
        showEnd();
      } else {
        textualTerminal.terminal.write("", showEnd);  // once the last bytes received are drawn
      }
    }
  };
  const watch = new MutationObserver(look);
  watch.observe(body, { attributes: true, attributeFilter: ["class"] });
  look();
}

function setUpKeyRow() {
  const row = document.querySelector(".keys");
  if (!row) {
    return;
  }
  row.addEventListener("mousedown", (event) => event.preventDefault());  // the terminal keeps the keyboard
  row.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-key]");
    if (button) {
      sendKey(button.dataset.key);
    }
  });
}

// A finger dragged up (or down) the terminal: a step of the mouse's wheel down (or up) at the finger each
// LINES_A_WHEEL_STEP lines it goes, handed to xterm.js as a wheel event, which it tells the game as it tells a
// wheel's. A tap (no move) stays a click; two fingers (a pinch) are the browser's.
function setUpSwipes() {
  const area = document.getElementById("terminal");
  let from = null;  // where the finger was at the last step (or at its touch), in CSS pixels from the top
  area.addEventListener("touchstart", (event) => {
    from = event.touches.length === 1 ? event.touches[0].clientY : null;
  }, { passive: true });
  area.addEventListener("touchmove", (event) => {
    const screen = area.querySelector(".xterm-screen");
    if (from === null || textualTerminal === null || screen === null || event.touches.length !== 1) {
      return;
    }
    const finger = event.touches[0];
    const step = LINES_A_WHEEL_STEP * screen.getBoundingClientRect().height / textualTerminal.terminal.rows;
    const steps = Math.trunc((from - finger.clientY) / step);  // up the screen: the wheel turned down
    if (steps === 0) {
      return;
    }
    event.preventDefault();
    from -= steps * step;
    for (let turned = 0; turned < Math.abs(steps); turned++) {
      screen.dispatchEvent(new WheelEvent("wheel", {
        deltaY: Math.sign(steps) * step, deltaMode: WheelEvent.DOM_DELTA_PIXEL, clientX: finger.clientX,
        clientY: finger.clientY, bubbles: true, cancelable: true,
      }));
    }
  }, { passive: false });
  area.addEventListener("touchend", () => {
    from = null;
  });
}

// The choice the browser keeps ("1", "0", or null: none; a browser that keeps nothing keeps no choice).
function keptChoice() {
  try {
    return window.localStorage.getItem(KEPT_CHOICE);
  } catch {
    return null;
  }
}

function keepChoice(on) {
  try {
    window.localStorage.setItem(KEPT_CHOICE, on ? ON : "0");
  } catch {
    // kept for this page only
  }
}

// The name page's box (and the sign-in form's field that follows it) as the browser keeps the choice, unless the
// address made it; a play page asked for again in lines where the browser keeps that choice and the address made
// none. True: the page is being replaced.
function followScreenReaderChoice() {
  const asked = new URLSearchParams(window.location.search).get(SCREEN_READER_PARAMETER);
  if (asked === ON || asked === "0") {
    keepChoice(asked === ON);
  }
  const box = document.getElementById("screen-reader");
  if (box) {
    if (asked === null && keptChoice() === ON) {
      box.checked = true;
    }
    const signInField = document.querySelector(`.sign-in input[name="${SCREEN_READER_PARAMETER}"]`);
    const follow = () => {
      if (signInField) {
        signInField.value = box.checked ? ON : "";
      }
    };
    follow();
    box.addEventListener("change", () => {
      keepChoice(box.checked);
      follow();
    });
    return false;
  }
  const terminal = document.getElementById("terminal");
  if (terminal && terminal.dataset.screenReader !== ON && asked === null && keptChoice() === ON) {
    const address = new URL(window.location.href);
    address.searchParams.set(SCREEN_READER_PARAMETER, ON);
    window.location.replace(address.href);
    return true;
  }
  return false;
}

const startTextual = window.onload;  // textual.js's: makes the terminal and connects
window.onload = (event) => {
  if (followScreenReaderChoice() || !document.getElementById("terminal")) {
    return;  // the page in lines is on its way, or this is the name page
  }
  setUpKeyRow();
  setUpSwipes();
  watchConnection();
  fillVisibleArea();
  window.addEventListener("resize", fitSoon);
  window.visualViewport?.addEventListener("resize", fitSoon);
  window.visualViewport?.addEventListener("scroll", fillVisibleArea);
  const fonts = Promise.allSettled([
    document.fonts.load(`${PREFERRED_FONT_SIZE}px 'Roboto Mono'`),
    document.fonts.load(`${PREFERRED_FONT_SIZE}px 'Soluna Symbols'`, "☀☾✶☄"),
  ]);
  const waited = new Promise((done) => setTimeout(done, FONT_WAIT_MS));
  Promise.race([fonts, waited]).then(() => {
    if (typeof startTextual === "function") {
      startTextual(event);
    }
  });
};
