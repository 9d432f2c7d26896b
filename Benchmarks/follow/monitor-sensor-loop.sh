#!/bin/sh

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# The peer's way to turn a wlroots desktop: iio-sensor-proxy's monitor-sensor piped into a shell loop
# that calls swaymsg on each orientation change, as users write it for sway (rot8 and the sway wiki's
# scripts do the same). stdbuf -oL: monitor-sensor prints with g_print and never flushes, so through a
# pipe its lines would wait for 4 KiB of output.
output=${1:-HEADLESS-1}
stdbuf -oL monitor-sensor | while read -r line; do
    case $line in
        *"orientation changed: normal"*) swaymsg output "$output" transform normal ;;
        *"orientation changed: right-up"*) swaymsg output "$output" transform 90 ;;
        *"orientation changed: bottom-up"*) swaymsg output "$output" transform 180 ;;
        *"orientation changed: left-up"*) swaymsg output "$output" transform 270 ;;
    esac
done
