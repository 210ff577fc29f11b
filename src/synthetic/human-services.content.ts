// The words of the synthetic directory: a three-level human-services taxonomy whose leaves carry
// the phrases that service names and descriptions are built from, so that a full-text search for
// "food bank" or "debt advice" finds services that are about that. Invented, but written the way
// Scottish directories describe their services.

export type LeafTopic = {
  name: string;
  description: string;
  /** Endings for service names: "Torry" + " Food Bank". */
  nouns: readonly string[];
};

export type SubTopic = { name: string; description: string; leaves: readonly LeafTopic[] };

export type TopTopic = {
  code: string;
  name: string;
  description: string;
  /** Organization name patterns; `{area}` is a neighbourhood or town. */
  organizations: readonly string[];
  subs: readonly SubTopic[];
};

const leaf = (name: string, description: string, ...nouns: string[]): LeafTopic => ({
  name,
  description,
  nouns,
});

export const SERVICE_TOPICS: readonly TopTopic[] = [
  {
    code: 'FOOD',
    name: 'Food',
    description:
      'Help to get enough to eat: emergency food, shared meals, affordable food and cooking skills.',
    organizations: [
      '{area} Food Network',
      '{area} Community Larder',
      'Granite City Food Share',
      '{area} Food Partnership',
    ],
    subs: [
      {
        name: 'Food banks',
        description: 'Emergency food for people in crisis, usually with a referral.',
        leaves: [
          leaf(
            'Emergency food parcels',
            'Emergency food parcels with at least three days of nutritionally balanced, non-perishable food for people who cannot afford to buy food.',
            'Food Bank',
            'Emergency Food Parcels',
            'Foodbank',
          ),
          leaf(
            'Food bank referrals',
            'Food bank vouchers, given after a short conversation about what led to the crisis and what other help could make a difference.',
            'Food Bank Referrals',
            'Food Voucher Point',
          ),
          leaf(
            'Baby banks',
            'Formula milk, baby food, nappies, clothes and toiletries for families who cannot afford them.',
            'Baby Bank',
            'Baby Essentials Bank',
          ),
        ],
      },
      {
        name: 'Community meals',
        description: 'Hot meals shared with others.',
        leaves: [
          leaf(
            'Lunch clubs',
            'A hot two-course lunch and good company once or twice a week, with transport for people who find it hard to get out.',
            'Lunch Club',
            'Friendship Lunch Club',
          ),
          leaf(
            'Soup kitchens',
            'Free hot meals and drinks, no questions asked, for anyone who is hungry, including people sleeping rough.',
            'Soup Kitchen',
            'Street Kitchen',
          ),
          leaf(
            'Community cafés',
            'A pay-what-you-can café serving hot food and drinks in a warm, welcoming space.',
            'Community Café',
            'Pay As You Feel Café',
          ),
        ],
      },
      {
        name: 'Affordable food',
        description: 'Lower-cost food, and schemes that stop good food going to waste.',
        leaves: [
          leaf(
            'Community pantries',
            'A membership pantry: members pay a small weekly fee and choose groceries worth much more, including fresh fruit, vegetables, meat and dairy.',
            'Community Pantry',
            'Community Larder',
          ),
          leaf(
            'Community fridges',
            'Surplus food from supermarkets, cafés and local growers, free for anyone to take.',
            'Community Fridge',
            'Food Share',
          ),
          leaf(
            'Holiday meals for children',
            'Free meals and activities for children during the school holidays, for families who rely on free school meals in term time.',
            'Holiday Food and Fun',
            'Holiday Lunch Club',
          ),
        ],
      },
      {
        name: 'Cooking and nutrition',
        description: 'Skills and advice to cook healthy meals on a budget.',
        leaves: [
          leaf(
            'Cooking classes',
            'Hands-on cooking classes teaching simple, healthy recipes from scratch, with all ingredients provided.',
            'Cooking Classes',
            'Community Kitchen',
          ),
          leaf(
            'Cooking on a budget',
            'Courses on planning meals, shopping and cooking for less, including low-energy cooking with slow cookers and air fryers.',
            'Cook on a Budget',
            'Eat Well for Less',
          ),
          leaf(
            'Nutrition advice',
            'Advice from dietitians and trained volunteers on healthy eating, special diets and feeding young children.',
            'Healthy Eating Advice',
            'Nutrition Clinic',
          ),
        ],
      },
    ],
  },
  {
    code: 'HOUSING',
    name: 'Housing',
    description: 'Help to find, keep, repair and heat a home.',
    organizations: [
      '{area} Housing Support',
      'North East Housing Trust',
      '{area} Care and Repair',
      'Granite City Homes Project',
    ],
    subs: [
      {
        name: 'Homelessness',
        description: 'Help for people who are homeless or about to lose their home.',
        leaves: [
          leaf(
            'Emergency accommodation',
            'Same-day emergency beds and temporary accommodation for people with nowhere safe to stay tonight.',
            'Night Shelter',
            'Emergency Accommodation',
            'Hostel',
          ),
          leaf(
            'Street outreach',
            'Outreach workers who find and support people sleeping rough, with sleeping bags, hot drinks and a route into accommodation.',
            'Street Outreach',
            'Rough Sleeper Outreach',
          ),
          leaf(
            'Homelessness advice',
            'Advice on your rights if you are homeless or threatened with homelessness, and help to make a homeless application to the council.',
            'Homelessness Advice',
            'Housing Options',
          ),
        ],
      },
      {
        name: 'Tenancy support',
        description: 'Help to set up and keep a home.',
        leaves: [
          leaf(
            'Tenancy sustainment',
            'Support workers who help tenants manage bills, repairs and neighbours so they can keep their home.',
            'Tenancy Support',
            'Tenancy Sustainment Service',
          ),
          leaf(
            'Rent arrears help',
            'Help to deal with rent arrears, agree repayment plans with landlords and prevent eviction.',
            'Rent Arrears Advice',
            'Eviction Prevention',
          ),
          leaf(
            'Setting up home',
            'Furniture, white goods and starter packs of bedding and kitchen equipment for people moving into a new tenancy.',
            'Furniture Project',
            'Starter Packs',
            'Setting Up Home',
          ),
        ],
      },
      {
        name: 'Repairs and adaptations',
        description: 'Help to keep a home safe, warm and accessible.',
        leaves: [
          leaf(
            'Home adaptations',
            'Grab rails, ramps, stairlifts and level-access showers so disabled and older people can live safely at home.',
            'Home Adaptations',
            'Adaptations Service',
          ),
          leaf(
            'Care and repair',
            'Help for older and disabled homeowners to arrange and pay for repairs, with trusted local tradespeople.',
            'Care and Repair',
          ),
          leaf(
            'Small repairs',
            'A handyperson service for small jobs such as fitting smoke alarms, changing light bulbs and fixing door locks.',
            'Handyperson Service',
            'Small Repairs Service',
          ),
        ],
      },
      {
        name: 'Energy and heating',
        description: 'Help to heat your home and pay energy bills.',
        leaves: [
          leaf(
            'Fuel poverty advice',
            'Advice on energy bills, tariffs, prepayment meters and debts to energy suppliers.',
            'Energy Advice',
            'Fuel Poverty Advice',
          ),
          leaf(
            'Insulation and heating grants',
            'Help to apply for funded insulation, heating upgrades and heat pumps.',
            'Home Energy Grants',
            'Warm Homes',
          ),
          leaf(
            'Warm spaces',
            'A free, warm and welcoming place to spend time in winter, with hot drinks, Wi-Fi and company.',
            'Warm Space',
            'Warm Welcome Space',
          ),
        ],
      },
    ],
  },
  {
    code: 'HEALTH',
    name: 'Health and wellbeing',
    description: 'Mental and physical health, alcohol and drugs, and healthy living.',
    organizations: [
      '{area} Wellbeing Centre',
      'Grampian Mental Health Forum',
      'North East Recovery Network',
      '{area} Health Project',
    ],
    subs: [
      {
        name: 'Mental health',
        description: 'Support for your mental health and wellbeing.',
        leaves: [
          leaf(
            'Counselling',
            'Free or low-cost counselling and talking therapy with trained counsellors, face to face, by phone or online.',
            'Counselling Service',
            'Talking Therapies',
          ),
          leaf(
            'Peer support groups',
            'Groups where people with lived experience of mental ill health support one another.',
            'Peer Support Group',
            'Wellbeing Group',
          ),
          leaf(
            'Crisis support',
            'Immediate, confidential support for people in mental health crisis or thinking about suicide.',
            'Crisis Support',
            'Distress Support Line',
          ),
        ],
      },
      {
        name: 'Alcohol and drugs',
        description: 'Support for people affected by alcohol or drug use, and their families.',
        leaves: [
          leaf(
            'Alcohol support',
            'One-to-one and group support to cut down or stop drinking, and help for families affected by drinking.',
            'Alcohol Support Service',
            'Recovery Café',
          ),
          leaf(
            'Drug treatment and recovery',
            'Assessment, prescribing, recovery workers and mutual aid for people who use drugs.',
            'Drug Recovery Service',
            'Recovery Hub',
          ),
          leaf(
            'Harm reduction',
            'Injecting equipment, naloxone kits and training, blood-borne virus testing and wound care.',
            'Harm Reduction Service',
            'Naloxone Training',
          ),
        ],
      },
      {
        name: 'Sexual health',
        description: 'Confidential sexual health and pregnancy services.',
        leaves: [
          leaf(
            'Contraception',
            'Free contraception, including long-acting methods, emergency contraception and condoms.',
            'Contraception Clinic',
          ),
          leaf(
            'Testing and treatment',
            'Confidential testing and treatment for sexually transmitted infections, including HIV.',
            'Sexual Health Clinic',
            'STI Testing',
          ),
          leaf(
            'Pregnancy advice',
            'Confidential, non-judgemental advice and support on pregnancy choices.',
            'Pregnancy Advice',
          ),
        ],
      },
      {
        name: 'Healthy living',
        description: 'Support to be more active and live more healthily.',
        leaves: [
          leaf(
            'Walking and activity groups',
            'Free, friendly led health walks and gentle exercise classes for all abilities.',
            'Health Walks',
            'Walking Group',
            'Chair Exercise Class',
          ),
          leaf(
            'Stop smoking',
            'Free support and nicotine replacement products to help you stop smoking.',
            'Stop Smoking Service',
          ),
          leaf(
            'Weight management',
            'Support to reach and keep a healthy weight, with group sessions and one-to-one coaching.',
            'Weight Management Programme',
            'Healthy Weight Group',
          ),
        ],
      },
    ],
  },
  {
    code: 'MONEY',
    name: 'Money and benefits',
    description: 'Advice on debt, benefits and making money go further.',
    organizations: [
      '{area} Money Advice',
      '{area} Advice Centre',
      'Grampian Credit Union',
      'North East Money Matters',
    ],
    subs: [
      {
        name: 'Debt advice',
        description: 'Free, confidential advice on debt.',
        leaves: [
          leaf(
            'Debt management',
            'Free, confidential debt advice on priority debts, payment plans and Debt Arrangement Scheme applications.',
            'Money Advice',
            'Debt Advice Service',
          ),
          leaf(
            'Sequestration and trust deeds',
            'Advice on sequestration (bankruptcy in Scotland), the Minimal Asset Process and trust deeds, and help with the application.',
            'Sequestration Advice',
            'Insolvency Advice',
          ),
          leaf(
            'Court and enforcement help',
            'Help if you face a court action, sheriff officers or an arrestment of wages for debt.',
            'Court Advice Project',
            'Enforcement Advice',
          ),
        ],
      },
      {
        name: 'Benefits',
        description: 'Help to claim the benefits you are entitled to.',
        leaves: [
          leaf(
            'Benefit checks',
            'A full check of the benefits you are entitled to, including Scottish benefits such as the Scottish Child Payment and Pension Age Disability Payment.',
            'Benefit Check',
            'Income Maximisation',
          ),
          leaf(
            'Universal Credit help',
            'Help to make and manage a Universal Credit claim, including the online journal.',
            'Universal Credit Help',
            'Help to Claim',
          ),
          leaf(
            'Appeals and tribunals',
            'Help to challenge benefit decisions: mandatory reconsiderations, appeals and representation at tribunal.',
            'Benefit Appeals',
            'Tribunal Representation',
          ),
        ],
      },
      {
        name: 'Managing money',
        description: 'Help to budget, save and borrow safely.',
        leaves: [
          leaf(
            'Budgeting support',
            'One-to-one help to make a budget, open a bank account and manage money.',
            'Budgeting Support',
            'Money Skills',
          ),
          leaf(
            'Credit unions',
            'Savings accounts and affordable loans from a not-for-profit credit union.',
            'Credit Union',
          ),
          leaf(
            'Crisis grants',
            'Help to apply for crisis grants and community care grants from the Scottish Welfare Fund and charitable trusts.',
            'Crisis Grants',
            'Welfare Fund Advice',
          ),
        ],
      },
      {
        name: 'Bills and consumer rights',
        description: 'Help with household bills and problems with traders.',
        leaves: [
          leaf(
            'Consumer advice',
            'Advice on faulty goods, scams, contracts and disputes with traders.',
            'Consumer Advice',
          ),
          leaf(
            'Council tax help',
            'Help with council tax reduction, water and sewerage charges and arrears.',
            'Council Tax Advice',
          ),
          leaf(
            'Digital inclusion',
            'Free data, refurbished devices and help to find social tariffs for broadband and mobile phones.',
            'Digital Inclusion',
            'Data Bank',
          ),
        ],
      },
    ],
  },
  {
    code: 'WORK',
    name: 'Work and learning',
    description: 'Jobs, skills, learning and volunteering.',
    organizations: [
      '{area} Learning Partnership',
      'North East Skills Hub',
      '{area} Volunteer Centre',
      'Granite City Works',
    ],
    subs: [
      {
        name: 'Finding work',
        description: 'Help to look for and apply for jobs.',
        leaves: [
          leaf(
            'CVs and applications',
            'Help to write a CV, fill in application forms and search for jobs online.',
            'CV Clinic',
            'Job Search Support',
          ),
          leaf(
            'Job clubs',
            'Weekly drop-in job clubs with computers, job listings and employment advisers.',
            'Job Club',
            'Employment Hub',
          ),
          leaf(
            'Interview preparation',
            'Mock interviews, coaching and free clothes for interviews.',
            'Interview Skills',
            'Work Clothes Bank',
          ),
        ],
      },
      {
        name: 'Adult learning',
        description: 'Free learning for adults.',
        leaves: [
          leaf(
            'Literacy and numeracy',
            'Free, informal help with reading, writing and numbers for adults.',
            'Adult Literacies',
            'Reading and Writing Group',
          ),
          leaf(
            'English for speakers of other languages',
            'ESOL classes in English for speakers of other languages, from beginners to advanced, and conversation cafés.',
            'ESOL Classes',
            'English Conversation Café',
          ),
          leaf(
            'Digital skills',
            'Help to use computers, smartphones, e-mail and online services safely.',
            'Digital Skills Drop-In',
            'Get Online Sessions',
          ),
        ],
      },
      {
        name: 'Volunteering',
        description: 'Opportunities to give time and gain experience.',
        leaves: [
          leaf(
            'Volunteer opportunities',
            'Matching people with local volunteering roles, with training and expenses paid.',
            'Volunteer Centre',
            'Volunteering Opportunities',
          ),
          leaf(
            'Youth volunteering',
            'Volunteering opportunities and awards for young people aged 12 to 25.',
            'Youth Volunteering',
          ),
          leaf(
            'Supported volunteering',
            'Volunteering with extra support for people with disabilities, long-term conditions or low confidence.',
            'Supported Volunteering',
          ),
        ],
      },
      {
        name: 'Employability',
        description: 'Support for people who are furthest from work.',
        leaves: [
          leaf(
            'Employability programmes',
            'Key workers who help people far from work build confidence, skills and qualifications.',
            'Employability Programme',
            'Routes to Work',
          ),
          leaf(
            'Apprenticeships',
            'Help to find and apply for Modern and Foundation Apprenticeships.',
            'Apprenticeship Support',
          ),
          leaf(
            'Supported employment',
            'Job coaching and in-work support for disabled people and people with health conditions.',
            'Supported Employment',
          ),
        ],
      },
    ],
  },
  {
    code: 'FAMILY',
    name: 'Families and children',
    description: 'Support for parents, children, young people and carers.',
    organizations: [
      '{area} Family Centre',
      'Granite City Youth Trust',
      '{area} Children and Families Project',
      '{area} Carers Network',
    ],
    subs: [
      {
        name: 'Early years',
        description: 'Play, learning and childcare for babies and young children.',
        leaves: [
          leaf(
            'Parent and toddler groups',
            'Play sessions for babies and toddlers with their parents and carers.',
            'Parent and Toddler Group',
            'Stay and Play',
          ),
          leaf(
            'Childcare',
            'Funded early learning and childcare for two to five year olds, and after-school clubs.',
            'Nursery',
            'Out of School Club',
          ),
          leaf(
            'Song and rhyme sessions',
            'Free song, story and rhyme sessions for babies, toddlers and their families.',
            'Rhymetime',
            'Song and Story Time',
          ),
        ],
      },
      {
        name: 'Parenting support',
        description: 'Help and advice for parents.',
        leaves: [
          leaf(
            'Parenting courses',
            'Group parenting programmes on child development, routines and managing behaviour.',
            'Parenting Course',
            'Positive Parenting Group',
          ),
          leaf(
            'Family support workers',
            'Practical and emotional support at home for families going through a hard time.',
            'Family Support Service',
            'Family Wellbeing Service',
          ),
          leaf(
            'Infant feeding support',
            'Breastfeeding and infant feeding support groups and home visits.',
            'Breastfeeding Support',
            'Infant Feeding Group',
          ),
        ],
      },
      {
        name: 'Young people',
        description: 'Activities and support for young people.',
        leaves: [
          leaf(
            'Youth clubs',
            'Drop-in youth clubs with games, sport, trips and trusted youth workers.',
            'Youth Club',
            'Youth Drop-In',
          ),
          leaf(
            'Youth counselling',
            'Confidential counselling for young people aged 11 to 25.',
            'Youth Counselling',
          ),
          leaf(
            'Care leavers',
            'Support for young people leaving care with housing, money, education and work.',
            'Throughcare and Aftercare',
            'Care Leavers Support',
          ),
        ],
      },
      {
        name: 'Carers',
        description: 'Support for unpaid carers of all ages.',
        leaves: [
          leaf(
            'Young carers',
            'Support, breaks and activities for children and young people who look after someone at home.',
            'Young Carers Project',
          ),
          leaf(
            'Short breaks',
            'Respite and short breaks so that unpaid carers can rest.',
            'Short Breaks Service',
            'Respite Service',
          ),
          leaf(
            'Carer advice',
            'Information, advice and adult carer support plans for unpaid carers.',
            'Carers Centre',
            'Carer Support Service',
          ),
        ],
      },
    ],
  },
  {
    code: 'CARE',
    name: 'Care and independence',
    description: 'Support for older people and disabled people to live well and independently.',
    organizations: [
      "{area} Older People's Forum",
      'Deeside Befriending',
      '{area} Independent Living Project',
      'North East Sensory Services Trust',
    ],
    subs: [
      {
        name: 'Older people',
        description: 'Company, activities and support in later life.',
        leaves: [
          leaf(
            'Befriending',
            'Regular visits or phone calls from a volunteer befriender for older people who feel lonely or isolated.',
            'Befriending Service',
            'Telephone Befriending',
          ),
          leaf(
            'Day centres',
            'Day centres with meals, activities, personal care and transport.',
            'Day Centre',
            'Day Opportunities',
          ),
          leaf(
            'Dementia support',
            'Support for people living with dementia and their families, including memory cafés and post-diagnostic support.',
            'Dementia Support',
            'Memory Café',
          ),
        ],
      },
      {
        name: 'Disability',
        description: 'Support for disabled people of all ages.',
        leaves: [
          leaf(
            'Learning disability support',
            'Day activities, independent living skills and social groups for adults with learning disabilities.',
            'Learning Disability Support',
            'Day Opportunities',
          ),
          leaf(
            'Sight and hearing loss',
            'Equipment, rehabilitation and social groups for people with sight or hearing loss.',
            'Sensory Support Service',
            'Hearing Aid Clinic',
          ),
          leaf(
            'Mobility equipment',
            'Short-term loans of wheelchairs, walking aids and mobility scooters.',
            'Wheelchair Loan',
            'Shopmobility',
          ),
        ],
      },
      {
        name: 'Care at home',
        description: 'Help to stay safe and well at home.',
        leaves: [
          leaf(
            'Home care',
            'Personal care and practical help at home to live independently.',
            'Care at Home',
            'Home Support',
          ),
          leaf(
            'Community alarms',
            'Community alarms and telecare that call for help in an emergency, 24 hours a day.',
            'Community Alarm Service',
            'Telecare',
          ),
          leaf(
            'Home from hospital',
            'Practical help for the first weeks at home after a hospital stay.',
            'Home from Hospital',
          ),
        ],
      },
      {
        name: 'Getting out and about',
        description: 'Transport, clubs and groups.',
        leaves: [
          leaf(
            'Community transport',
            'Door-to-door minibus and volunteer car schemes for people who cannot use public transport.',
            'Community Transport',
            'Dial-a-Bus',
          ),
          leaf(
            'Social groups',
            'Clubs and groups to meet people, learn new skills and have fun.',
            'Social Club',
            "Men's Shed",
          ),
          leaf(
            'Travel concessions',
            'Help to apply for Blue Badges, bus passes and other travel concessions.',
            'Concessionary Travel Help',
          ),
        ],
      },
    ],
  },
  {
    code: 'SAFETY',
    name: 'Safety and legal help',
    description: 'Support to be safe, and advice on your legal rights.',
    organizations: [
      "{area} Women's Aid",
      'North East Law Centre',
      '{area} Mediation Service',
      'Grampian Victims Network',
    ],
    subs: [
      {
        name: 'Domestic abuse',
        description: 'Support for people experiencing domestic abuse.',
        leaves: [
          leaf(
            'Refuge accommodation',
            'Safe, confidential refuge accommodation for women and children escaping domestic abuse.',
            "Women's Refuge",
            'Safe Accommodation',
          ),
          leaf(
            'Domestic abuse advocacy',
            'Independent advocates who support people experiencing domestic abuse with safety planning, police and court.',
            'Domestic Abuse Advocacy',
            'Domestic Abuse Outreach',
          ),
          leaf(
            'Domestic abuse helplines',
            'Confidential domestic abuse support by phone, web chat and e-mail.',
            'Domestic Abuse Helpline',
          ),
        ],
      },
      {
        name: 'Legal advice',
        description: 'Free legal advice and representation.',
        leaves: [
          leaf(
            'Housing law',
            'Free legal advice and representation on evictions, repossessions and disrepair.',
            'Housing Law Service',
            'Legal Advice Clinic',
          ),
          leaf(
            'Employment rights',
            'Advice on unfair dismissal, pay, discrimination and employment tribunals.',
            'Employment Rights Advice',
          ),
          leaf(
            'Immigration advice',
            'Regulated immigration advice for refugees, asylum seekers and migrants, including EU Settlement Scheme applications.',
            'Immigration Advice',
            'Refugee Advice',
          ),
        ],
      },
      {
        name: 'Victims of crime',
        description: 'Support after crime.',
        leaves: [
          leaf(
            'Victim support',
            'Emotional and practical support for people affected by crime, whether or not it was reported.',
            'Victim Support Service',
          ),
          leaf(
            'Hate crime reporting',
            'A third-party reporting centre where you can report hate crime without going to the police.',
            'Hate Crime Reporting Centre',
          ),
          leaf(
            'Sexual violence support',
            'Specialist support for anyone affected by rape or sexual abuse, at any time in their life.',
            'Sexual Violence Support',
            'Rape Crisis Support',
          ),
        ],
      },
      {
        name: 'Community safety',
        description: 'Safer neighbourhoods and homes.',
        leaves: [
          leaf(
            'Neighbour mediation',
            'Free mediation to resolve disputes between neighbours.',
            'Community Mediation',
          ),
          leaf(
            'Scam prevention',
            'Advice and call blockers to protect people from scams and fraud.',
            'Scams Prevention',
          ),
          leaf(
            'Youth justice',
            'Diversion and support for young people in trouble with the law or at risk of offending.',
            'Youth Justice Service',
            'Diversion Service',
          ),
        ],
      },
    ],
  },
];

/** The second, flat taxonomy: who a service is for. Ages feed `minimum_age` / `maximum_age`. */
export type AudienceTopic = {
  code: string;
  name: string;
  description: string;
  minimumAge?: number;
  maximumAge?: number;
};

export const AUDIENCES: readonly AudienceTopic[] = [
  { code: 'CHILDREN', name: 'Children', description: 'Children up to 11 years old.', maximumAge: 11 },
  {
    code: 'YOUNG_PEOPLE',
    name: 'Young people',
    description: 'Young people aged 12 to 25.',
    minimumAge: 12,
    maximumAge: 25,
  },
  { code: 'ADULTS', name: 'Adults', description: 'Adults aged 18 and over.', minimumAge: 18 },
  { code: 'OLDER_PEOPLE', name: 'Older people', description: 'People aged 60 and over.', minimumAge: 60 },
  { code: 'FAMILIES', name: 'Families', description: 'Parents, carers and their children.' },
  {
    code: 'CARERS',
    name: 'Unpaid carers',
    description: 'People who look after a relative, partner or friend without pay.',
  },
  {
    code: 'DISABLED',
    name: 'Disabled people',
    description: 'People with physical, sensory or learning disabilities or long-term conditions.',
  },
  {
    code: 'REFUGEES',
    name: 'Refugees and asylum seekers',
    description: 'People seeking or granted refugee protection.',
  },
  {
    code: 'VETERANS',
    name: 'Veterans',
    description: 'People who have served in the armed forces, and their families.',
  },
  { code: 'WOMEN', name: 'Women', description: 'Women and girls.' },
  {
    code: 'LGBTQ',
    name: 'LGBTQ+ people',
    description: 'Lesbian, gay, bisexual, transgender and queer people.',
  },
];

export const GENERIC_ORGANIZATIONS = [
  '{area} Community Trust',
  '{area} Development Trust',
  '{area} Community Project',
  '{area} Citizens Advice',
  "St Mary's Church, {area}",
  "St Andrew's Parish, {area}",
  '{area} Community Council',
  '{area} Neighbourhood Network',
] as const;

export const LEGAL_STATUSES = [
  'Scottish Charitable Incorporated Organisation',
  'Company limited by guarantee',
  'Unincorporated association',
  'Community interest company',
  'Registered charity',
] as const;

export const VENUES = [
  '{area} Community Centre',
  '{area} Library',
  '{area} Church Hall',
  '{area} Health Centre',
  '{area} Community Hub',
  '{area} Family Centre',
  '{street} Resource Centre',
] as const;

export const ACCESSIBILITY = [
  [
    'Step-free access at the main entrance and an accessible toilet.',
    'Ring the bell at the side door if the ramp gate is closed.',
  ],
  ['An induction loop at reception and in the main hall.', 'Switch your hearing aid to the T setting.'],
  [
    'Lift to all floors and accessible parking in front of the building.',
    'Two blue badge spaces; ask at reception for a permit.',
  ],
  [
    'Assistance dogs welcome; a quiet room is available.',
    'Ask a member of staff if you would like to use the quiet room.',
  ],
] as const;

export const LANGUAGES = [
  { name: 'Polish', code: 'pl' },
  { name: 'Scottish Gaelic', code: 'gd' },
  { name: 'Arabic', code: 'ar' },
  { name: 'Romanian', code: 'ro' },
  { name: 'Ukrainian', code: 'uk' },
  { name: 'Urdu', code: 'ur' },
  { name: 'Russian', code: 'ru' },
  { name: 'Lithuanian', code: 'lt' },
  { name: 'British Sign Language', code: 'bfi' },
] as const;

export const FIRST_NAMES = [
  'Fiona',
  'Alasdair',
  'Morag',
  'Callum',
  'Eilidh',
  'Ruaridh',
  'Kirsty',
  'Euan',
  'Isla',
  'Hamish',
  'Agnieszka',
  'Tomasz',
  'Aisha',
  'Priya',
  'Craig',
  'Lorna',
  'Graeme',
  'Shona',
  'Mhairi',
  'Iain',
] as const;

export const SURNAMES = [
  'MacDonald',
  'Stewart',
  'Robertson',
  'Thomson',
  'Reid',
  'Milne',
  'Duncan',
  'Cruickshank',
  'Ross',
  'Gordon',
  'Nowak',
  'Kowalski',
  'Ahmed',
  'Patel',
  'Forbes',
  'Leslie',
  'Davidson',
  'Mitchell',
  'Watt',
  'Simpson',
] as const;

export const JOB_TITLES = [
  'Service Coordinator',
  'Project Manager',
  'Volunteer Coordinator',
  'Support Worker',
  'Development Officer',
  'Team Leader',
] as const;

export const APPLICATION_PROCESSES = [
  'Drop in during opening hours; no appointment needed.',
  'Phone us to book an appointment.',
  'Referral from a GP, health visitor, social worker or support agency.',
  'Self-referral by phone, e-mail or the online form on our website.',
  'Fill in the short online form and we will call you back within two working days.',
] as const;

export const FUNDERS = [
  'A grant from the National Lottery Community Fund.',
  'Funded by the local council and the health and social care partnership.',
  'Scottish Government funding through a third-sector grant programme.',
  'Donations from local churches, businesses and members of the public.',
] as const;

export const REQUIRED_DOCUMENTS = [
  'A referral voucher from a partner agency.',
  'Proof of address, such as a recent bill or council tax letter.',
  'Photo identification, if you have it; we will not turn you away without it.',
] as const;

export const BUS_ROUTES = ['1', '2', '3', '12', '13', '15', '17', '18', '19', '20', '23', '59'] as const;
