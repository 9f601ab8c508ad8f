"""The Kaiser's Battle (SPI 1980): its own system on the shared hex core.

``data.KbData`` compiles the scenario's charts once; ``game.KbGame`` holds the engine arrays;
the procedures are one module per part of the rules (movement and zones of control, combat,
artillery, weather and air, breakdown, supply, reinforcements, the opening turns, victory),
all functions of the state's arrays that call the one search kernel.
"""
