#!/bin/sh
# Install Diplomacy Desktop for this user only (no root, nothing outside your home folder):
#
#     ./install.sh               # install (again: replaces an earlier install)
#     ./install.sh --uninstall   # remove everything install.sh put there
#
# It puts the app folder in ~/.local/share/diplomacy-desktop/app, a link ~/.local/bin/diplomacy-desktop
# (the command line: `diplomacy-desktop adjudicate FILE`, `diplomacy-desktop render ...`), the menu entry
# ~/.local/share/applications/diplomacy-desktop.desktop and the icon in ~/.local/share/icons/hicolor.
# $XDG_DATA_HOME is used instead of ~/.local/share when it is set.  Your saved games and settings are
# not touched by either.
set -eu

NAME=diplomacy-desktop
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
APP_DIR=$DATA/$NAME
BIN_DIR=$HOME/.local/bin
DESKTOP_FILE=$DATA/applications/$NAME.desktop
ICON_SIZES="16 24 32 48 64 128 256 512"

refresh_menus() {
  if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$DATA/applications" 2>/dev/null || true
  fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$DATA/icons/hicolor" 2>/dev/null || true
  fi
}

uninstall() {
  # only what install.sh installed: the link only if it points into our app folder
  if [ -L "$BIN_DIR/$NAME" ] && [ "$(readlink "$BIN_DIR/$NAME")" = "$APP_DIR/app/$NAME" ]; then
    rm -f "$BIN_DIR/$NAME"
  fi
  rm -f "$DESKTOP_FILE"
  for size in $ICON_SIZES; do
    rm -f "$DATA/icons/hicolor/${size}x${size}/apps/$NAME.png"
  done
  rm -rf "$APP_DIR"
  refresh_menus
}

case "${1:-}" in
  --uninstall)
    uninstall
    echo "Diplomacy Desktop is uninstalled (your saved games are still in ~/.diplomacy-desktop or where you saved them)."
    exit 0
    ;;
  "") ;;
  *)
    echo "usage: $0 [--uninstall]" >&2
    exit 2
    ;;
esac

[ -x "$HERE/$NAME/$NAME" ] || { echo "install.sh: $HERE/$NAME/$NAME is missing: unpack the whole tarball first" >&2; exit 1; }
if [ -e "$BIN_DIR/$NAME" ] && ! [ -L "$BIN_DIR/$NAME" ]; then
  echo "install.sh: $BIN_DIR/$NAME exists and is not our link (a pip-installed diplomacy-desktop?); remove it or keep it, then run install.sh again" >&2
  exit 1
fi

# a fresh copy next to the old one, then swapped in: a failed copy leaves the old install working
mkdir -p "$APP_DIR" "$BIN_DIR" "$DATA/applications"
rm -rf "$APP_DIR/app.new"
cp -R "$HERE/$NAME" "$APP_DIR/app.new"
rm -rf "$APP_DIR/app"
mv "$APP_DIR/app.new" "$APP_DIR/app"

ln -sfn "$APP_DIR/app/$NAME" "$BIN_DIR/$NAME"
for size in $ICON_SIZES; do
  if [ -f "$HERE/icons/hicolor/${size}x${size}/apps/$NAME.png" ]; then
    mkdir -p "$DATA/icons/hicolor/${size}x${size}/apps"
    cp "$HERE/icons/hicolor/${size}x${size}/apps/$NAME.png" "$DATA/icons/hicolor/${size}x${size}/apps/$NAME.png"
  fi
done
# the menu entry starts the installed program by its full path (~/.local/bin need not be in PATH)
sed "s|^Exec=.*|Exec=\"$APP_DIR/app/$NAME\" %f|" "$HERE/$NAME.desktop" >"$DESKTOP_FILE.new"
mv "$DESKTOP_FILE.new" "$DESKTOP_FILE"
refresh_menus

echo "Diplomacy Desktop is installed: find it in your applications menu, or run $BIN_DIR/$NAME"
case ":$PATH:" in
  *":$BIN_DIR:"*) ;;
  *) echo "($BIN_DIR is not in your PATH: add it to run diplomacy-desktop from a terminal)" ;;
esac
