"""The app on the phone's home screen: its manifest, its service worker, the offline page."""
