"""Page permission requests in pywebview's Qt backend (Linux window).

pywebview 6.2.1's ``BrowserView.WebPage.onFeaturePermissionRequested`` answers with plain ints
(``setFeaturePermission(url, feature, 2)``); PyQt6 only accepts the
``QWebEnginePage.PermissionPolicy`` enum, so the first permission request — e.g.
``navigator.clipboard.writeText`` when the user copies terminal text — raises inside a Qt slot
and aborts the whole process, taking every PTY with it. This module replaces that handler with
one that passes the enum, grants the clipboard to IdeA's own page (copy/paste in terminals) and
media capture as pywebview did, and denies everything else.

Source: ``webview/platforms/qt.py`` (pywebview 6.2.1, ``onFeaturePermissionRequested``) and Qt's
``QWebEnginePage::setFeaturePermission`` documentation.
"""

from __future__ import annotations

from typing import Any

GRANTED_FEATURES = ("ClipboardReadWrite", "MediaAudioCapture", "MediaVideoCapture",
                    "MediaAudioVideoCapture")


def decide(feature_name: str) -> str:
    """``"PermissionGrantedByUser"`` for the features IdeA's page may use, else denied."""
    if feature_name in GRANTED_FEATURES:
        return "PermissionGrantedByUser"
    return "PermissionDeniedByUser"


def install() -> bool:
    """Patch pywebview's Qt page class; returns False when the Qt backend is not importable.

    Must run before the first window is created (the handler is connected in the page's
    constructor).
    """
    try:
        from PyQt6.QtWebEngineCore import QWebEnginePage
        from webview.platforms import qt
    except ImportError:
        return False

    def on_feature_permission_requested(page: Any, url: Any, feature: Any) -> None:
        policy = getattr(QWebEnginePage.PermissionPolicy, decide(feature.name))
        page.setFeaturePermission(url, feature, policy)

    setattr(qt.BrowserView.WebPage, "onFeaturePermissionRequested",  # noqa: B010 - a method
            on_feature_permission_requested)
    return True
