"""The table display: a web page fed only from the table's MQTT topics.

`display.cli:display` starts it. The server subscribes to `domino/<table>/...`, folds
what it hears into one view (`display.view`), pushes that view to every open page by
Server-Sent Events, and relays the players' buttons as MQTT commands.
"""
