// Table-side scoreboard enclosure: a front shell and a back plate, 3D printed (PETG or PLA).
//
// Front, seen by the referee: the 32x16 LED panel at the top (two FC-16 4-module
// boards stacked, 128 x 64 mm of LEDs), the 4.2" e-ink panel bottom left, the 4x4
// membrane keypad bottom right (stuck on the face, its ribbon through a slot). The
// Pico sits on standoffs on the back plate with its micro-USB at the right side wall.
// The drawing with the dimensions is enclosure.svg; the parts list is README.md.
//
// Render: openscad -D 'part="front"' -o front.stl enclosure.scad   (and part="back")
// Print the front face down, no supports needed except the USB opening's top (bridge).

part = "both"; // "front", "back" or "both" (side by side, for a look)

// Outside of the box, mm.
W = 200;      // width
H = 170;      // height
D = 45;       // depth, front face to the back of the back plate
wall = 3;     // walls and front face
back = 3;     // back plate thickness
r = 6;        // corner radius

// Openings in the front face (x from the left edge, y from the top edge; sizes w x h).
led_x = 35.5;  led_y = 12;  led_w = 129;  led_h = 65;    // 128 x 64 LED matrix + 0.5 mm
eink_x = 12;   eink_y = 89; eink_w = 86;  eink_h = 65;   // 4.2" active area 84.8 x 63.6
eink_pcb_w = 103; eink_pcb_h = 78.5;                     // Waveshare module, behind the face
kp_x = 119;    kp_y = 83;   kp_w = 69;    kp_h = 77;     // keypad face (legend size)
slot_w = 22;   slot_h = 3;  slot_y = 163;                // keypad ribbon slot, under the pad
buzz_x = 183;  buzz_y = 44;                              // centre of the buzzer holes
usb_w = 12;    usb_h = 8;   usb_z = 14;                  // right wall, from the back

// Screws: M3 x 10 into heat-set inserts in the corner bosses.
boss_d = 8;  screw_d = 3.2;  insert_d = 4.2;  inset = 7;

$fn = 48;

module rounded_box(w, h, d, rr) {
    hull() for (x = [rr, w - rr], y = [rr, h - rr])
        translate([x, y, 0]) cylinder(r = rr, h = d);
}

// Coordinates: x right, y up from the bottom edge, z out of the front face.
// The helpers below take y "from the top", as on the drawing.
module cut(x, ytop, w, h, depth = 3 * wall) {
    translate([x, H - ytop - h, -depth / 2]) cube([w, h, depth]);
}

module front_shell() {
    difference() {
        rounded_box(W, H, D - back, r);
        // hollow: open at the back
        translate([wall, wall, -1]) cube([W - 2 * wall, H - 2 * wall, D - back - wall + 1]);
        // the face is at z = D - back - wall .. D - back
        translate([0, 0, D - back - wall / 2]) {
            cut(led_x, led_y, led_w, led_h);
            cut(eink_x, eink_y, eink_w, eink_h);
            cut(kp_x + (kp_w - slot_w) / 2, slot_y, slot_w, slot_h);
            for (dx = [-4, 0, 4], dy = [-4, 0, 4])
                translate([buzz_x + dx, H - buzz_y + dy, -wall]) cylinder(d = 2, h = 3 * wall);
        }
        // keypad recess: 0.6 mm deep, so the legend film sits flush
        translate([0, 0, D - back - 0.6])
            translate([kp_x - 0.5, H - kp_y - kp_h - 0.5, 0]) cube([kp_w + 1, kp_h + 1, 1]);
        // micro-USB through the right wall
        translate([W - wall - 1, H / 2 - usb_w / 2, usb_z - usb_h / 2 - back])
            cube([wall + 2, usb_w, usb_h]);
    }
    // corner bosses for the back plate screws
    for (x = [inset, W - inset], y = [inset, H - inset])
        translate([x, y, 0]) difference() {
            cylinder(d = boss_d, h = D - back - wall);
            translate([0, 0, -1]) cylinder(d = insert_d, h = 8);
        }
    // e-ink module frame: four posts around its PCB, 2 mm behind the face
    ex = eink_x + eink_w / 2;
    ey = H - eink_y - eink_h / 2;
    for (sx = [-1, 1], sy = [-1, 1])
        translate([ex + sx * (eink_pcb_w / 2 + 1.5) - 1.5, ey + sy * (eink_pcb_h / 2 + 1.5) - 1.5,
                   D - back - wall - 6])
            cube([3, 3, 6]);
}

module back_plate() {
    difference() {
        rounded_box(W, H, back, r);
        for (x = [inset, W - inset], y = [inset, H - inset])
            translate([x, y, -1]) cylinder(d = screw_d, h = back + 2);
        // two keyhole slots to hang it on a wall or the table's light frame
        for (x = [W / 2 - 50, W / 2 + 50])
            translate([x, H - 30, -1]) {
                cylinder(d = 9, h = back + 2);
                translate([-2.2, -10, 0]) cube([4.4, 10, back + 2]);
            }
    }
    // Pico standoffs (its mounting holes: 11.4 x 47 mm), USB end to the right wall
    for (dx = [0, 47], dy = [0, 11.4])
        translate([W - wall - 3 - 47 + dx, H / 2 - 5.7 + dy, back]) difference() {
            cylinder(d = 5, h = 6);
            cylinder(d = 2.2, h = 7);
        }
}

if (part == "front" || part == "both") front_shell();
if (part == "back") back_plate();
if (part == "both") translate([W + 10, 0, 0]) back_plate();
