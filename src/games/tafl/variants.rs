//! The variants OpenTafl ships, by the names norn gives them, with their
//! rules strings as OpenTafl writes them (docs/rules/tafl.md).

/// A variant: its name on the command line, a title, and its rules string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The name, e.g. `brandub`.
    pub name: &'static str,
    /// A one-line description, e.g. `Brandubh 7x7`.
    pub title: &'static str,
    /// The rules string.
    pub rules: &'static str,
}

/// The start of the 11x11 games of Fetlar, Copenhagen and Computer Fetlar.
macro_rules! eleven_start {
    () => {
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
    };
}

/// The start of the 9x9 games of Tablut, Foteviken Tablut and Sea Battle.
macro_rules! nine_start {
    () => {
        "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    };
}

/// The start of the 7x7 games of Brandub and Magpie.
macro_rules! seven_start {
    () => {
        "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    };
}

/// Every variant, smallest board first.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "brandub",
        title: "Brandubh 7x7 (weak king, corner escape)",
        rules: concat!(
            "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: ",
            seven_start!()
        ),
    },
    Variant {
        name: "magpie",
        title: "Magpie 7x7 (Brandubh with a middleweight king that moves one square)",
        rules: concat!(
            "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, ",
            seven_start!()
        ),
    },
    Variant {
        name: "tablut",
        title: "Tablut 9x9 (edge escape, king strong at the centre)",
        rules: concat!(
            "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: ",
            "cenhe:tcnkTCNK linc:y ",
            nine_start!()
        ),
    },
    Variant {
        name: "foteviken-tablut",
        title: "Foteviken Tablut 9x9 (edge escape, attackers' fortresses)",
        rules: concat!(
            "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: ",
            "afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK ",
            "aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: ",
            nine_start!()
        ),
    },
    Variant {
        name: "sea-battle",
        title: "Sea Battle 9x9 (edge escape, unarmed king, no throne)",
        rules: concat!(
            "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: ",
            nine_start!()
        ),
    },
    Variant {
        name: "fetlar",
        title: "Fetlar 11x11 (corner escape, strong armed king)",
        rules: concat!("dim:11 name:Fetlar atkf:y nj:n cj:n ", eleven_start!()),
    },
    Variant {
        name: "copenhagen",
        title: "Copenhagen 11x11 as OpenTafl plays it (the repeating side loses)",
        rules: concat!(
            "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y ",
            eleven_start!()
        ),
    },
    Variant {
        name: "copenhagen-relaxed",
        title: "Copenhagen 11x11 with any move closing a shieldwall",
        rules: concat!(
            "dim:11 name:Copenhagen atkf:y tfr:w sw:s swf:n efe:y ",
            eleven_start!()
        ),
    },
    Variant {
        name: "berserk",
        title: "Berserk 11x11 (commanders, a knight, capture chains)",
        rules: "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
    },
    Variant {
        name: "tawlbwrdd",
        title: "Tawlbwrdd 11x11 (edge escape, weak king)",
        rules: "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    },
    Variant {
        name: "computer-fetlar",
        title: "Computer Fetlar 11x11 (Fetlar where the repeating side loses)",
        rules: concat!("dim:11 name:Computer_Fetlar tfr:w ", eleven_start!()),
    },
    Variant {
        name: "sea-battle-13",
        title: "Parlett's Sea Battle 13x13 (edge escape, unarmed king)",
        rules: "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
    },
    Variant {
        name: "tablut-15",
        title: "Tablut 15x15 (edge escape, king strong at the centre)",
        rules: "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/",
    },
    Variant {
        name: "alea-evangelii",
        title: "Alea Evangelii 19x19 (sixteen corner squares)",
        rules: "dim:19 name:Alea_Evangelii esc:c atkf:y cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/",
    },
];

/// The variant named `name`.
pub fn variant(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|variant| variant.name == name)
}
