"""The table's own devices as the service drives them: the players' panel (`panel`:
turn LEDs, alert LED, buzzer) and the instrumented board (`board`: its LED and beep
under an illegal tile, its edge buttons as commands)."""
