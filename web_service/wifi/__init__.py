"""Wi-Fi through NetworkManager: nmcli calls, wifi_config.json, the setup access point
monitor and the captive portal answers. Never imports the API views or the guard."""
