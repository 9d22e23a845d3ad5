"""PyInstaller hook for pywebview 6 (replaces the contrib hook, which targets older releases).

pywebview reads its injected scripts from ``webview/js/*.js`` at run time on every platform; the
contrib hook collects them nowhere but on Windows (``webview/lib``). The backend module is
chosen at run time (``webview.guilib``), so it is declared here: Qt on Linux, WebView2
(EdgeChromium, via pythonnet/WinForms) on Windows.
"""

from PyInstaller.compat import is_win
from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs

datas = collect_data_files("webview", subdir="js")
binaries = []
if is_win:
    datas += collect_data_files("webview", subdir="lib")
    binaries += collect_dynamic_libs("webview")
    hiddenimports = ["webview.platforms.winforms", "webview.platforms.edgechromium", "clr"]
else:
    hiddenimports = ["webview.platforms.qt", "qtpy", "qtpy.QtWebEngineWidgets", "qtpy.QtWebEngineCore",
                     "qtpy.QtWebChannel", "qtpy.QtNetwork"]
